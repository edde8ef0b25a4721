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

class LeakyBucketTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimiter limiter = limiter(Algorithm.LEAKY_BUCKET, 4, 1000, clock);

    @AfterEach
    void close() {
        limiter.close();
    }

    @Test
    void admitsWhileTheQueueHasRoom() {
        assertEquals("YYYYN", take(limiter, 1, 5));
    }

    @Test
    void eachAdmissionWaitsForTheOnesQueuedBeforeIt() {
        Decision d = new Decision();
        long[] delays = new long[4];
        for (int i = 0; i < 4; i++) {
            assertTrue(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
            delays[i] = d.delayNanos();
        }
        assertEquals(0, delays[0]);
        assertEquals(250 * MS, delays[1]);
        assertEquals(500 * MS, delays[2]);
        assertEquals(750 * MS, delays[3]);
    }

    @Test
    void drainsOneSlotPerInterval() {
        take(limiter, 1, 4);
        clock.advanceMillis(249);
        assertEquals("N", take(limiter, 1, 1));
        clock.advanceMillis(1);
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(750 * MS, d.delayNanos());
    }

    @Test
    void aWeightedRequestWaitsForTheQueueAheadOfIt() {
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(0, d.delayNanos());
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(500 * MS, d.delayNanos());
        assertFalse(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(250 * MS, d.retryAfterNanos());
    }

    @Test
    void anEmptyQueueMeansNoDelayAfterDaysIdle() {
        take(limiter, 1, 4);
        clock.advance(Duration.ofDays(2));
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(0, d.delayNanos());
        assertEquals(3, d.remaining());
    }

    @Test
    void clockSteppingBackGrantsNothing() {
        clock.setMillis(3_000);
        take(limiter, 1, 4);
        clock.setMillis(0);
        assertEquals("N", take(limiter, 1, 1));
    }
}
