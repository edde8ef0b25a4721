package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class RateLimitConfigTest {

    private static void rejects(Executable e, String... fragments) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        for (String f : fragments) {
            assertTrue(ex.getMessage().contains(f), ex.getMessage() + " should mention " + f);
        }
    }

    @Test
    void isAValue() {
        RateLimitConfig a = new RateLimitConfig(Algorithm.TOKEN_BUCKET, 5, 1000);
        RateLimitConfig b = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(5, a.limit());
        assertEquals(Duration.ofSeconds(1), a.window());
        assertEquals(Algorithm.TOKEN_BUCKET, a.algorithm());
        assertNotEquals(a, a.withBurst(2));
        assertTrue(a.toString().contains("TOKEN_BUCKET"));
    }

    @Test
    void rejectsALimitBelowOne() {
        rejects(() -> new RateLimitConfig(Algorithm.FIXED_WINDOW, 0, 1000), "limit", "[1, ");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, -5, Duration.ofSeconds(1)), "limit");
    }

    @Test
    void rejectsWindowsOutsideOneMillisecondTo366Days() {
        rejects(() -> new RateLimitConfig(Algorithm.FIXED_WINDOW, 1, 0), "windowMillis", "[1, ");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofNanos(999_999)), "window");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofDays(367)), "window");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(-1)), "window");
    }

    @Test
    void rejectsLimitsThePackedStateCannotHold() {
        long max = RateLimitConfig.maxLimit(Algorithm.SLIDING_WINDOW_COUNTER, Duration.ofSeconds(1));
        RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, max, Duration.ofSeconds(1));
        rejects(() -> RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, max + 1, Duration.ofSeconds(1)),
                "limit", String.valueOf(max));
        rejects(() -> RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 65_537, Duration.ofSeconds(1)), "limit");
        rejects(() -> RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2_000_000, Duration.ofMillis(1)), "limit");
    }

    @Test
    void supportsProductionSizedLimits() {
        RateLimitConfig.of(Algorithm.FIXED_WINDOW, Integer.MAX_VALUE, Duration.ofDays(1));
        RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 100_000, Duration.ofSeconds(1));
        RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000, Duration.ofSeconds(1));
        RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 65_536, Duration.ofDays(366));
    }

    @Test
    void burstAppliesToBucketsOnly() {
        assertEquals(10, RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofMinutes(1)).withBurst(10).burst());
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofMinutes(1)).withBurst(10), "burst");
        rejects(() -> RateLimitConfig.of(Algorithm.LEAKY_BUCKET, 100, Duration.ofMinutes(1)).withBurst(0), "burst", "[1, ");
    }

    @Test
    void rejectsNullsByName() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> RateLimitConfig.of(null, 1, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("algorithm"));
    }

    @Test
    void errorsPrintDurationsAPersonReadsNotIsoPeriods() {
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofDays(367)),
                "window", "from 1 ms to 366 days", "was 367 days");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofNanos(1_500_000).negated()),
                "was -1.500 ms");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(Long.MAX_VALUE)), "days");
        rejects(() -> new RateLimitConfig(Algorithm.FIXED_WINDOW, 1, 0), "windowMillis", "1 ms to 366 days");
        rejects(() -> RateLimitConfig.of(Algorithm.FIXED_WINDOW, 0, Duration.ofMinutes(90)), "limit",
                "a window of 1 hour 30 min");
        rejects(() -> RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(10)).withBurst(0), "burst",
                "5 per 10 s");
    }
}
