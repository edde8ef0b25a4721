package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Huge permits, huge windows, clocks at the edges of the long range: no overflow ever grants a permit. */
class ExtremeInputTest {

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void hugePermitCountsAreDeniedNotOverflowed(Algorithm algorithm) {
        ManualClock clock = new ManualClock();
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 10, Duration.ofDays(366)))
                .clock(clock).maxKeys(16).build()) {
            assertFalse(limiter.tryAcquire(1, Long.MAX_VALUE));
            assertFalse(limiter.tryAcquire(1, 11));
            assertTrue(limiter.tryAcquire(1, 10));
            assertFalse(limiter.tryAcquire(1, 1));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aClockNearLongMaxValueKeepsRefillingAcrossTheWrap(Algorithm algorithm) {
        ManualClock clock = new ManualClock();
        clock.setNanos(Long.MAX_VALUE - Duration.ofSeconds(10).toNanos());
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 2, Duration.ofSeconds(1)))
                .clock(clock).maxKeys(16).build()) {
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
            clock.advance(Duration.ofSeconds(2));
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
            clock.advance(Duration.ofSeconds(20)); // wraps past Long.MAX_VALUE: compared by difference, 20 s passed
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
            clock.advance(Duration.ofSeconds(2));
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aClockAtLongMinValueWorks(Algorithm algorithm) {
        ManualClock clock = new ManualClock();
        clock.setNanos(Long.MIN_VALUE);
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 2, Duration.ofSeconds(1)))
                .clock(clock).maxKeys(16).build()) {
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
            clock.advance(Duration.ofDays(3));
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
            long aYearAhead = clock.nanoTime() + Duration.ofDays(365).toNanos();
            assertThrows(IllegalArgumentException.class, () -> limiter.tryAcquire(1, 1, aYearAhead));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void callerSuppliedTimeNeedsNoClockRead(Algorithm algorithm) {
        Clock failing = () -> {
            throw new AssertionError("clock read");
        };
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 2, Duration.ofSeconds(1)))
                .clock(() -> 0L).maxKeys(16).build()) {
            assertTrue(limiter.tryAcquire(1, 1, 0));
            assertTrue(limiter.tryAcquire("k", 2, 5));
            assertFalse(limiter.tryAcquire("k", 1, 10));
            assertTrue(limiter.tryAcquire("k", 2, Duration.ofSeconds(2).toNanos()));
            assertTrue(failing != null);
        }
    }
}
