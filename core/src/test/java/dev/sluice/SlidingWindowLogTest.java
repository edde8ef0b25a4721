package dev.sluice;

import static dev.sluice.LimiterTestSupport.MS;
import static dev.sluice.LimiterTestSupport.limiter;
import static dev.sluice.LimiterTestSupport.take;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SlidingWindowLogTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimiter limiter = limiter(Algorithm.SLIDING_WINDOW_LOG, 4, 1000, clock);

    @AfterEach
    void close() {
        limiter.close();
    }

    @Test
    void admitsAtMostTheLimitInAnyWindow() {
        assertEquals("YYYYN", take(limiter, 1, 5));
    }

    @Test
    void aPermitLeavesTheWindowExactlyOneWindowAfterItWasTaken() {
        take(limiter, 1, 1);
        clock.setMillis(300);
        take(limiter, 1, 3);
        clock.setNanos(1000 * MS - 1);
        assertEquals("N", take(limiter, 1, 1));
        clock.setMillis(1000);
        assertEquals("YN", take(limiter, 1, 2));
        clock.setMillis(1300);
        assertEquals("YYYN", take(limiter, 1, 4));
    }

    @Test
    void ringWrapsManyTimes() {
        for (int lap = 0; lap < 10; lap++) {
            assertEquals("YYYYN", take(limiter, 1, 5));
            clock.advanceMillis(1000);
        }
    }

    @Test
    void weightedPermitsTakeOneEntryEach() {
        assertTrue(limiter.tryAcquire(1, 3));
        assertFalse(limiter.tryAcquire(1, 2));
        clock.setMillis(500);
        assertTrue(limiter.tryAcquire(1, 1));
        clock.setMillis(1000);
        assertTrue(limiter.tryAcquire(1, 3));
        assertFalse(limiter.tryAcquire(1, 1));
        assertFalse(limiter.tryAcquire(1, 5));
    }

    @Test
    void idleForDaysIsEmpty() {
        take(limiter, 1, 4);
        clock.advance(Duration.ofDays(4));
        assertEquals("YYYYN", take(limiter, 1, 5));
    }

    @Test
    void clockSteppingBackGrantsNothing() {
        clock.setMillis(5_000);
        take(limiter, 1, 4);
        clock.setMillis(0);
        assertEquals("N", take(limiter, 1, 1));
        clock.setMillis(5_999);
        assertEquals("N", take(limiter, 1, 1));
    }

    @Test
    void aRequestAtAnEarlierCallerTimeIsDecidedAtTheKeysNewestTime() {
        try (RateLimiter log = limiter(Algorithm.SLIDING_WINDOW_LOG, 2, 1, new ManualClock())) {
            assertTrue(log.tryAcquire(7, 1, 0));
            assertTrue(log.tryAcquire(7, 1, MS));
            // At 0.5 ms the permit of time 0 is still in the window, but the key's time is already 1 ms, where it has
            // left: admitted, and recorded at 1 ms.
            assertTrue(log.tryAcquire(7, 1, MS / 2));
            assertFalse(log.tryAcquire(7, 1, MS / 2 + 1));
            assertFalse(log.tryAcquire(7, 1, 2 * MS - 1));
            // Both permits recorded at 1 ms have left the window at 2 ms.
            assertTrue(log.tryAcquire(7, 1, 2 * MS));
            assertTrue(log.tryAcquire(7, 1, 2 * MS));
            assertFalse(log.tryAcquire(7, 1, 2 * MS));
        }
    }

    @Test
    void aWeightedAdmissionWritesItsEntriesAcrossTheRingsEnd() {
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(1, 3)); // entries 0 to 2, at 0 ms
        clock.setMillis(1000);
        // Entries 3 and 0: the ring's last slot, then its first.
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(2, d.remaining());
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d)); // entries 1 and 2
        assertEquals(0, d.remaining());
        assertFalse(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(1000 * MS, d.retryAfterNanos()); // every entry, the wrapped one too, is at 1000 ms
        clock.setNanos(2000 * MS - 1);
        assertFalse(limiter.tryAcquire(1, 1));
        clock.setMillis(2000);
        assertEquals("YYYYN", take(limiter, 1, 5));
    }

    @Test
    void decisionTellsRemainingRetryAndReset() {
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(3, d.remaining());
        assertEquals(1000 * MS, d.resetAfterNanos());
        clock.setMillis(200);
        assertTrue(limiter.tryAcquire(1, 3, clock.nanoTime(), d));
        assertEquals(0, d.remaining());
        assertEquals(1000 * MS, d.resetAfterNanos());
        assertFalse(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(1000 * MS, d.retryAfterNanos()); // the second-oldest (at 200 ms) must leave
        assertFalse(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(800 * MS, d.retryAfterNanos());
    }

    @Test
    void releaseRemovesTheNewestPermits() {
        take(limiter, 1, 4);
        limiter.release(1, 2, clock.nanoTime());
        assertEquals("YYN", take(limiter, 1, 3));
    }

    @Test
    void releaseInAWrappedRingKeepsTheOlderPermits() {
        take(limiter, 1, 4);
        clock.setMillis(1000);
        take(limiter, 1, 2); // ring wrapped: entries at 0, 0, 1000, 1000 in the window's history
        limiter.release(1, 1, clock.nanoTime());
        assertEquals("YYYN", take(limiter, 1, 4));
    }

    @Test
    void aLapOfTheRingAdmitsExactlyThePermitsThatHaveLeftTheWindow() {
        try (RateLimiter log = limiter(Algorithm.SLIDING_WINDOW_LOG, 20, 1000, clock)) {
            assertEquals("YYYYYYYYYY", take(log, 1, 10));
            clock.setMillis(500);
            assertEquals("YYYYYYYYYYN", take(log, 1, 11));
            // The ten entries of 0 have left the window, the ten of 500 ms have not.
            clock.setMillis(1000);
            assertEquals("YYYYYYYYYYN", take(log, 1, 11));
            clock.setMillis(1500);
            assertEquals("YYYYYYYYYYN", take(log, 1, 11));
        }
    }

    @Test
    void aReleaseOfTheNewestEntryMovesTheKeysTimeBackToTheEntryBefore() {
        // A window of 1 ms: a caller time up to 1 ms behind the latest is not raised to it (see TimeLine).
        try (RateLimiter log = limiter(Algorithm.SLIDING_WINDOW_LOG, 4, 1, clock)) {
            assertEquals("YYYY", take(log, 1, 4)); // entries at 0
            clock.setMillis(1);
            assertEquals("Y", take(log, 1, 1)); // at 1 ms the other three entries are out of the window too
            log.release(1, 1, clock.nanoTime()); // the key's newest entry is at 0 again
            // At 0.5 ms the three entries of 0 are in the window: only the released slot is free.
            assertTrue(log.tryAcquire(1, 1, MS / 2));
            assertFalse(log.tryAcquire(1, 1, MS / 2));
            assertFalse(log.tryAcquire(1, 1, MS - 1));
            assertEquals("YYYN", take(log, 1, 4));
        }
    }
}
