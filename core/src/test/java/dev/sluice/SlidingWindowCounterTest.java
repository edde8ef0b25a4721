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

class SlidingWindowCounterTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimiter limiter = limiter(Algorithm.SLIDING_WINDOW_COUNTER, 10, 1000, clock);

    @AfterEach
    void close() {
        limiter.close();
    }

    @Test
    void deniesTheEleventhRequestInTheFirstWindow() {
        assertEquals("YYYYYYYYYYN", take(limiter, 1, 11));
    }

    @Test
    void previousWindowWeighsByItsOverlap() {
        take(limiter, 1, 10);
        clock.setMillis(1_500); // the previous 10 weigh 10 * 0.5 = 5
        assertEquals("YYYYYN", take(limiter, 1, 6));
    }

    @Test
    void weightIsComparedExactlyNotRounded() {
        take(limiter, 1, 10);
        clock.setNanos(1_000 * MS + 100 * MS - 1); // weight just above 9: only 0 fit
        assertEquals("N", take(limiter, 1, 1));
        clock.setNanos(1_100 * MS); // weight exactly 9: one fits
        assertEquals("YN", take(limiter, 1, 2));
    }

    @Test
    void countsOlderThanThePreviousWindowAreForgotten() {
        take(limiter, 1, 10);
        clock.setMillis(2_000);
        assertEquals("YYYYYYYYYYN", take(limiter, 1, 11));
    }

    @Test
    void idleForDaysIsFresh() {
        take(limiter, 1, 10);
        clock.advance(Duration.ofDays(3));
        assertEquals(10, take(limiter, 1, 10).chars().filter(c -> c == 'Y').count());
    }

    @Test
    void clockSteppingBackGrantsNothing() {
        clock.setMillis(1_200);
        take(limiter, 1, 10);
        clock.setMillis(200);
        assertEquals("N", take(limiter, 1, 1));
    }

    @Test
    void weightedPermits() {
        assertTrue(limiter.tryAcquire(1, 7));
        assertFalse(limiter.tryAcquire(1, 4));
        assertTrue(limiter.tryAcquire(1, 3));
        assertFalse(limiter.tryAcquire(1, 11));
    }

    @Test
    void decisionTellsRemainingRetryAndReset() {
        Decision d = new Decision();
        take(limiter, 1, 10);
        clock.setMillis(1_500);
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(3, d.remaining()); // 10 - 2 - ceil(10 * 0.5)
        assertEquals(1_500 * MS, d.resetAfterNanos()); // both counts gone at 3000 ms
        assertFalse(limiter.tryAcquire(1, 5, clock.nanoTime(), d));
        // Needs 10 * (1000 - e) / 1000 <= 10 - 2 - 5 = 3, so e >= 700 ms: 200 ms from now.
        assertEquals(200 * MS, d.retryAfterNanos());
    }
}
