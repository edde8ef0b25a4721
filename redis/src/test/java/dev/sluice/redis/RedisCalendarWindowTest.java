package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Clock;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * On an epoch clock the local engine and the Redis scripts agree on calendar windows: a day runs from 00:00 UTC
 * to 00:00 UTC in both, wherever the local limiter was created.
 */
class RedisCalendarWindowTest {

    private static final Duration DAY = Duration.ofDays(1);

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    private static long at(String instant) {
        Instant i = Instant.parse(instant);
        return TimeUnit.SECONDS.toNanos(i.getEpochSecond()) + i.getNano();
    }

    /**
     * The trace's time is given to both: the ManualClock (read as nanoseconds since 1970) to the engine, the same
     * time in microseconds to the scripts in place of Redis TIME.
     */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "SLIDING_WINDOW_COUNTER"})
    void localAndRedisDayWindowsTurnOverAtTheSameMidnight(Algorithm algorithm) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 10, DAY);
        ManualClock clock = new ManualClock();
        clock.setNanos(at("2026-12-07T10:15:00Z"));
        SplittableRandom random = new SplittableRandom(algorithm.ordinal());
        long[] times = {at("2026-12-07T10:15:00Z"), at("2026-12-07T23:59:59.999Z"), at("2026-12-08T00:00:00Z"),
            at("2026-12-08T12:00:00Z"), at("2026-12-08T23:59:59.999Z"), at("2026-12-09T00:00:00Z"),
            at("2026-12-09T18:00:00Z")};
        Decision local = new Decision();
        Decision remote = new Decision();
        int admitted = 0;
        try (RateLimiter engine = RateLimiter.create(config, clock);
                RedisRateLimiter redis = RedisRateLimiter.builder(config, server.connection())
                        .keyPrefix("calendar" + algorithm + ":").timeout(Duration.ofSeconds(10)).callerTimeForTests()
                        .build()) {
            for (long now : times) {
                clock.setNanos(now);
                for (int i = 0; i < 4 + random.nextInt(10); i++) {
                    boolean a = engine.tryAcquire(1L, 1, now, local);
                    boolean b = redis.tryAcquire(1L, 1, now, remote);
                    assertEquals(local.toString(), remote.toString(), "at " + Instant.ofEpochSecond(0, now));
                    assertEquals(a, b);
                    admitted += a ? 1 : 0;
                }
            }
            assertEquals(0, redis.failures());
        }
        assertTrue(admitted > 10, "more than one day's limit was admitted: " + admitted);
    }

    /** With real time on both sides (Clock.epoch() and Redis TIME), both say the day ends at the next UTC midnight. */
    @Test
    void onRealTimeBothSayTheDayEndsAtTheNextUtcMidnight() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 5, DAY);
        Decision local = new Decision();
        Decision remote = new Decision();
        try (RateLimiter engine = RateLimiter.create(config, Clock.epoch());
                RedisRateLimiter redis = RedisRateLimiter.builder(config, server.connection())
                        .keyPrefix("calendar-real:").timeout(Duration.ofSeconds(10)).build()) {
            long now = Clock.epoch().nanoTime();
            assertTrue(engine.tryAcquire(1L, 1, now, local));
            assertTrue(redis.tryAcquire(1L, 1, now, remote));
            long midnight = TimeUnit.SECONDS.toNanos(LocalDate.ofInstant(Instant.ofEpochSecond(0, now), ZoneOffset.UTC)
                    .plusDays(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond());
            long expected = midnight - now;
            // The two clocks are this machine's, read a few milliseconds apart.
            assertTrue(Math.abs(local.resetAfterNanos() - expected) < TimeUnit.SECONDS.toNanos(1),
                    "local " + local.resetAfterNanos() + " vs " + expected);
            assertTrue(Math.abs(remote.resetAfterNanos() - expected) < TimeUnit.SECONDS.toNanos(1),
                    "redis " + remote.resetAfterNanos() + " vs " + expected);
        }
    }

    @Test
    void anOffsetAlignmentIsRejectedOnRedis() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 5, DAY).alignedTo(ZoneOffset.ofHours(2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RedisRateLimiter.builder(config, server.connection()).build());
        assertEquals("alignment must be UTC on Redis (its scripts count windows from 1970 on Redis TIME), was +02:00",
                e.getMessage());
    }
}
