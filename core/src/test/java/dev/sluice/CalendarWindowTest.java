package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Windows on an epoch time line are calendar windows: a day window runs from 00:00 to 00:00 UTC, or in the
 * config's offset, whenever the limiter was created. A {@link ManualClock} reads nanoseconds since 1970 here, as
 * {@link Clock#epoch()} does. Each behaviour holds for the engine and the reference.
 */
class CalendarWindowTest {

    private static final Duration DAY = Duration.ofDays(1);

    /** The two implementations: the lock-free engine and the synchronized reference. */
    enum Impl {
        ENGINE((config, clock) -> RateLimiter.builder(config).clock(clock).maxKeys(64).build()),
        REFERENCE(ReferenceRateLimiter::new);

        final BiFunction<RateLimitConfig, Clock, RateLimiter> create;

        Impl(BiFunction<RateLimitConfig, Clock, RateLimiter> create) {
            this.create = create;
        }
    }

    private final ManualClock clock = new ManualClock();

    private static long at(String instant) {
        Instant i = Instant.parse(instant);
        return TimeUnit.SECONDS.toNanos(i.getEpochSecond()) + i.getNano();
    }

    /** How many of {@code tries} unit requests the limiter admits with its clock at {@code now}. */
    private int admitted(RateLimiter limiter, int tries, long now) {
        clock.setNanos(now);
        int n = 0;
        for (int i = 0; i < tries; i++) {
            n += limiter.tryAcquire(7L) ? 1 : 0;
        }
        return n;
    }

    private RateLimiter createdAt(Impl impl, RateLimitConfig config, String instant) {
        clock.setNanos(at(instant));
        return impl.create.apply(config, clock);
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void fixedDayWindowEndsAtMidnightUtcNotADayAfterTheLimiterWasCreated(Impl impl) {
        try (RateLimiter limiter = createdAt(impl, RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, DAY),
                "2026-12-07T10:15:00Z")) {
            assertEquals(2, admitted(limiter, 2, at("2026-12-07T10:15:00Z")));
            assertEquals(1, admitted(limiter, 2, at("2026-12-07T23:59:59.999Z")));
            assertEquals(0, admitted(limiter, 1, at("2026-12-07T23:59:59.999999999Z")));
            assertEquals(3, admitted(limiter, 4, at("2026-12-08T00:00:00Z")));
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void fixedDayWindowAlignedToAnOffsetEndsAtMidnightInThatOffset(Impl impl) {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, DAY).alignedTo(ZoneOffset.ofHours(2));
        try (RateLimiter limiter = createdAt(impl, config, "2026-12-07T10:15:00Z")) {
            // Midnight at +02:00 is 22:00 UTC; UTC midnight is mid-window.
            assertEquals(3, admitted(limiter, 4, at("2026-12-07T21:59:59.999Z")));
            assertEquals(2, admitted(limiter, 2, at("2026-12-07T22:00:00Z")));
            assertEquals(1, admitted(limiter, 2, at("2026-12-07T23:59:59.999Z")));
            assertEquals(0, admitted(limiter, 1, at("2026-12-08T00:00:00Z")));
            assertEquals(3, admitted(limiter, 4, at("2026-12-08T22:00:00Z")));
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void negativeOffsetStartsTheDayAfterUtcMidnight(Impl impl) {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, DAY).alignedTo(ZoneOffset.ofHours(-5));
        try (RateLimiter limiter = createdAt(impl, config, "2026-12-08T04:00:00Z")) {
            assertEquals(1, admitted(limiter, 2, at("2026-12-08T04:59:59.999Z")));
            assertEquals(1, admitted(limiter, 2, at("2026-12-08T05:00:00Z")));
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void slidingCounterWeighsYesterdayByTheShareOfTodayStillToCome(Impl impl) {
        try (RateLimiter limiter = createdAt(impl, RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 10, DAY),
                "2026-12-07T10:15:00Z")) {
            assertEquals(10, admitted(limiter, 11, at("2026-12-07T23:59:59.999Z")));
            // At 00:00 yesterday's 10 weigh fully; at 12:00 UTC half of them do.
            assertEquals(0, admitted(limiter, 1, at("2026-12-08T00:00:00Z")));
            assertEquals(5, admitted(limiter, 6, at("2026-12-08T12:00:00Z")));
        }
    }

    @ParameterizedTest
    @EnumSource(Impl.class)
    void slidingCounterAlignedToAnOffsetRollsAtMidnightInThatOffset(Impl impl) {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 10, DAY)
                .alignedTo(ZoneOffset.ofHours(-6));
        try (RateLimiter limiter = createdAt(impl, config, "2026-12-07T10:15:00Z")) {
            // The day at -06:00 starts at 06:00 UTC: 23:59:59.999 UTC and 00:00 UTC are in one window.
            assertEquals(10, admitted(limiter, 11, at("2026-12-07T23:59:59.999Z")));
            assertEquals(0, admitted(limiter, 1, at("2026-12-08T00:00:00Z")));
            // 18:00 UTC is 12 hours into the next window: half of the 10 still weigh.
            assertEquals(5, admitted(limiter, 6, at("2026-12-08T18:00:00Z")));
        }
    }

    @Test
    void hourWindowsIgnoreWholeHourOffsetsButNotHalfHourOnes() {
        RateLimitConfig hourly = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1));
        try (RateLimiter whole = createdAt(Impl.ENGINE, hourly.alignedTo(ZoneOffset.ofHours(3)), "2026-12-07T10:15:00Z");
                RateLimiter half = createdAt(Impl.ENGINE, hourly.alignedTo(ZoneOffset.ofHoursMinutes(5, 30)),
                        "2026-12-07T10:15:00Z")) {
            assertEquals(1, admitted(whole, 1, at("2026-12-07T10:45:00Z")));
            assertEquals(1, admitted(whole, 1, at("2026-12-07T11:00:00Z")));
            assertEquals(1, admitted(half, 1, at("2026-12-07T10:15:00Z")));
            assertEquals(0, admitted(half, 1, at("2026-12-07T10:29:59.999Z")));
            assertEquals(1, admitted(half, 1, at("2026-12-07T10:30:00Z")));
        }
    }

    @Test
    void alignmentIsPartOfTheConfigsIdentity() {
        RateLimitConfig utc = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 5, DAY);
        assertEquals(ZoneOffset.UTC, utc.alignment());
        assertEquals(utc, utc.alignedTo(ZoneOffset.UTC));
        RateLimitConfig paris = utc.alignedTo(ZoneOffset.ofHours(1));
        assertNotEquals(utc, paris);
        assertEquals(3_600_000_000_000L, paris.alignmentNanos());
        assertTrue(paris.toString().contains("aligned to +01:00"), paris.toString());
    }

    @Test
    void anOffsetIsRejectedForAlgorithmsWithoutWindows() {
        for (Algorithm a : new Algorithm[] {Algorithm.TOKEN_BUCKET, Algorithm.LEAKY_BUCKET, Algorithm.SLIDING_WINDOW_LOG}) {
            RateLimitConfig config = RateLimitConfig.of(a, 5, DAY);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> config.alignedTo(ZoneOffset.ofHours(1)));
            assertEquals("alignment applies to FIXED_WINDOW and SLIDING_WINDOW_COUNTER only, not " + a, e.getMessage());
            assertEquals(config, config.alignedTo(ZoneOffset.UTC));
        }
    }

    @Test
    void epochClockReadsNanosecondsSince1970AndNeverGoesBack() {
        long before = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        long first = Clock.epoch().nanoTime();
        long second = Clock.epoch().nanoTime();
        long after = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        assertTrue(second >= first, first + " then " + second);
        // Within a second of the wall clock (its anchor was read at most a test run ago).
        assertTrue(Math.abs(first - before) < 1_000_000_000L, first + " vs " + before);
        assertTrue(Math.abs(second - after) < 1_000_000_000L, second + " vs " + after);
    }
}
