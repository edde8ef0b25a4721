package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One table per limiter, allocated when it is built, holding long, string and byte keys side by side. */
class OneTableTest {

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void theTableIsAllocatedWhenTheLimiterIsBuiltAndTheFirstRequestsAllocateNothingMore(Algorithm algorithm) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 4, Duration.ofSeconds(1));
        try (RateLimiter limiter = RateLimiter.builder(config).clock(new ManualClock()).maxKeys(1000).build()) {
            long atBuild = ((EngineLimiter) limiter).offHeapBytes();
            assertTrue(atBuild > 0);
            limiter.tryAcquire(7L, 1, 0);
            limiter.tryAcquire("seven", 1, 0);
            assertEquals(atBuild, ((EngineLimiter) limiter).offHeapBytes());
            assertEquals(2, limiter.liveKeys());
        }
    }

    @Test
    void aLongKeyAndTheStringThatPrintsAlikeAreDifferentKeysInTheOneTable() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1));
        try (RateLimiter limiter = RateLimiter.builder(config).clock(new ManualClock()).maxKeys(64).build()) {
            for (long k = 0; k < 20; k++) {
                assertTrue(limiter.tryAcquire(k, 1, 0));
                assertTrue(limiter.tryAcquire(Long.toString(k), 1, 0));
            }
            byte[] five = "5".getBytes(StandardCharsets.UTF_8);
            assertFalse(limiter.tryAcquire(five, 0, 1, 1, 0, null));
            assertFalse(limiter.tryAcquire(5L, 1, 0));
            assertEquals(40, limiter.liveKeys());
        }
    }

    @Test
    void longAndStringKeysShareTheCapacityAndFillItWithoutAFullTable() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofHours(1));
        int capacity = 20_000;
        try (RateLimiter limiter = RateLimiter.builder(config).clock(new ManualClock()).maxKeys(capacity).build()) {
            for (int i = 0; i < capacity / 2; i++) {
                assertTrue(limiter.tryAcquire(i, 1, 0));
                assertTrue(limiter.tryAcquire("key-" + i, 1, 0));
            }
            assertEquals(0, limiter.tableFullEvents());
            assertEquals(capacity, limiter.liveKeys());
        }
    }
}
