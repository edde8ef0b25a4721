package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One caller's time cannot poison the others': a reading far ahead (but within the accepted lead), a reading that
 * goes backwards and a rejected reading a year ahead leave every other key refilling on the clock, on every
 * algorithm, on the engine and on the reference.
 */
class OneCallersTimeTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MINUTE = 60 * SECOND;

    private static RateLimiter limiter(Algorithm algorithm, ManualClock clock, boolean reference) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 2, Duration.ofSeconds(1));
        return reference ? new ReferenceRateLimiter(config, clock)
                : RateLimiter.builder(config).clock(clock).maxKeys(4).build(); // one short stripe: keys meet
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aFarAheadReadingOnOneKeyLeavesTheOtherKeysRefillingOnTheEngine(Algorithm algorithm) {
        otherKeysKeepRefilling(algorithm, false);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aFarAheadReadingOnOneKeyLeavesTheOtherKeysRefillingOnTheReference(Algorithm algorithm) {
        otherKeysKeepRefilling(algorithm, true);
    }

    private static void otherKeysKeepRefilling(Algorithm algorithm, boolean reference) {
        ManualClock clock = new ManualClock();
        clock.setNanos(7 * SECOND);
        try (RateLimiter limiter = limiter(algorithm, clock, reference)) {
            long t = clock.nanoTime();
            assertEquals(2, takeAll(limiter, 1L, t));
            // Key 2 is decided at a reading 59 minutes ahead: accepted, and only key 2's time moves.
            assertTrue(limiter.tryAcquire(2L, 1, t + 59 * MINUTE));
            // A year ahead is rejected and changes nothing.
            assertThrows(IllegalArgumentException.class, () -> limiter.tryAcquire(3L, 1, t + 365L * 24 * 60 * MINUTE));
            // A reading that goes backwards on key 1 grants nothing.
            assertFalse(limiter.tryAcquire(1L, 1, t - SECOND));
            for (int w = 1; w <= 5; w++) {
                long later = t + w * 2 * SECOND;
                clock.setNanos(later);
                assertEquals(2, takeAll(limiter, 1L, later), "key 1, " + w * 2 + " s later");
                assertEquals(2, takeAll(limiter, 4L, later), "key 4, " + w * 2 + " s later");
            }
            // Key 2 stays at its own time: nothing more until the clock reaches it.
            assertFalse(limiter.tryAcquire(2L, 2, t + 12 * SECOND));
        }
    }

    private static int takeAll(RateLimiter limiter, long key, long now) {
        int n = 0;
        while (n < 10 && limiter.tryAcquire(key, 1, now)) {
            n++;
        }
        return n;
    }
}
