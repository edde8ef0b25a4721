package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test: on the same trace, each Lua script makes the same decisions as the local engine, field by field.
 * Redis time is driven deterministically: the limiter is built with {@code callerTimeForTests()}, so each script
 * takes the trace's time (the ManualClock's nanoseconds, in whole microseconds) instead of Redis TIME; both engines
 * start at time 0, so their windows are aligned alike. The memo of denials is off: these tests check the scripts.
 */
class RedisParityTest {

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    static Stream<RateLimitConfig> configs() {
        return Stream.of(
                RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1)),
                RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 3, Duration.ofSeconds(1)),
                RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1)).withBurst(3),
                RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 7, Duration.ofMillis(100)),
                RateLimitConfig.of(Algorithm.LEAKY_BUCKET, 4, Duration.ofSeconds(1)),
                RateLimitConfig.of(Algorithm.LEAKY_BUCKET, 3, Duration.ofSeconds(1)).withBurst(2),
                RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(1)),
                RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10, Duration.ofMillis(250)),
                RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 5, Duration.ofSeconds(1)),
                RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 7, Duration.ofMillis(300)),
                RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 4, Duration.ofSeconds(1)),
                RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 10, Duration.ofMillis(200)));
    }

    @ParameterizedTest
    @MethodSource("configs")
    void makesTheSameDecisionsAsTheLocalEngine(RateLimitConfig config) {
        replay(config, server.connection());
    }

    /** The random trace of requests and releases, on the local engine and on {@code connection}'s Redis. */
    static void replay(RateLimitConfig config, StatefulRedisConnection<String, String> connection) {
        ManualClock clock = new ManualClock();
        long windowMicros = config.windowNanos() / 1000;
        SplittableRandom random = new SplittableRandom(config.toString().hashCode());
        Decision local = new Decision();
        Decision remote = new Decision();
        int admitted = 0;
        int denied = 0;
        try (RateLimiter engine = RateLimiter.create(config, clock);
                RedisRateLimiter redis = RedisRateLimiter.builder(config, connection)
                        .keyPrefix("parity" + random.nextLong() + ":").timeout(Duration.ofSeconds(10)).denyMemo(0).callerTimeForTests().build()) {
            for (int i = 0; i < 1500; i++) {
                int roll = random.nextInt(100);
                long step = roll < 3 ? random.nextLong(3 * windowMicros) : random.nextLong(windowMicros / (config.limit() + 2) + 1);
                clock.advanceNanos(step * 1000);
                long now = clock.nanoTime();
                long key = random.nextInt(4);
                long permits = roll == 50 ? config.burst() + 1 : 1 + random.nextInt(3);
                if (roll >= 95) {
                    engine.release(key, permits, now);
                    redis.release(key, permits, now);
                    continue;
                }
                boolean a = engine.tryAcquire(key, permits, now, local);
                boolean b = redis.tryAcquire(key, permits, now, remote);
                assertEquals(local.toString(), remote.toString(),
                        "request " + i + " key " + key + " permits " + permits + " at " + now + "ns");
                assertEquals(a, b);
                if (a) {
                    admitted++;
                } else {
                    denied++;
                }
            }
            assertEquals(0, redis.failures());
        }
        assertTrue(admitted > 100 && denied > 100, "the trace exercises both outcomes: " + admitted + "/" + denied);
    }

    @ParameterizedTest
    @MethodSource("configs")
    void stringAndPairKeysMatchTheLocalEngine(RateLimitConfig config) {
        ManualClock clock = new ManualClock();
        Decision local = new Decision();
        Decision remote = new Decision();
        try (RateLimiter engine = RateLimiter.create(config, clock);
                RedisRateLimiter redis = RedisRateLimiter.builder(config, server.connection())
                        .keyPrefix("pairs" + System.nanoTime() + ":").timeout(Duration.ofSeconds(10)).denyMemo(0).callerTimeForTests().build()) {
            String[] users = {"alice", "bob", "{odd}", "a}b"};
            for (int i = 0; i < 200; i++) {
                clock.advanceNanos(config.windowNanos() / 50);
                long now = clock.nanoTime();
                String user = users[i % users.length];
                boolean a = engine.tryAcquire(user, "api", 1, now, local);
                boolean b = redis.tryAcquire(user, "api", 1, now, remote);
                assertEquals(a, b, "pair request " + i);
                assertEquals(engine.tryAcquire(user, 1, now, local), redis.tryAcquire(user, 1, now, remote),
                        "string request " + i);
                assertEquals(local.toString(), remote.toString());
            }
        }
    }
}
