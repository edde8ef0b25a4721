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

class FixedWindowTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimiter limiter = limiter(Algorithm.FIXED_WINDOW, 3, 1000, clock);

    @AfterEach
    void close() {
        limiter.close();
    }

    @Test
    void deniesFourthRequestInSameWindow() {
        assertEquals("YYYN", take(limiter, 1, 4));
    }

    @Test
    void lastNanosecondOfAWindowStillBelongsToIt() {
        take(limiter, 1, 3);
        clock.setNanos(1000 * MS - 1);
        assertEquals("N", take(limiter, 1, 1));
        clock.setNanos(1000 * MS);
        assertEquals("YYYN", take(limiter, 1, 4));
    }

    @Test
    void windowsAreAlignedToTheClockNotToTheFirstRequest() {
        clock.setMillis(10_900);
        assertEquals("YYYN", take(limiter, 1, 4));
        clock.setMillis(11_000);
        assertEquals("YYYN", take(limiter, 1, 4));
    }

    @Test
    void windowsAlignEvenWhenTheLimiterIsCreatedMidWindow() {
        clock.setMillis(10_900);
        try (RateLimiter late = limiter(Algorithm.FIXED_WINDOW, 3, 1000, clock)) {
            assertEquals("YYYN", take(late, 1, 4));
            clock.setMillis(11_000);
            assertEquals("YYYN", take(late, 1, 4));
        }
    }

    @Test
    void idleForDaysStartsAFreshWindow() {
        take(limiter, 1, 3);
        clock.advance(Duration.ofDays(5));
        assertEquals("YYYN", take(limiter, 1, 4));
    }

    @Test
    void clockSteppingBackCountsInTheLatestWindow() {
        clock.setMillis(2_500);
        take(limiter, 1, 3);
        clock.setMillis(1_500);
        assertEquals("N", take(limiter, 1, 1));
    }

    @Test
    void weightedPermitsCount() {
        assertTrue(limiter.tryAcquire(1, 2));
        assertFalse(limiter.tryAcquire(1, 2));
        assertTrue(limiter.tryAcquire(1, 1));
        assertFalse(limiter.tryAcquire(1, 4));
    }

    @Test
    void decisionTellsRemainingAndTimeToTheNextWindow() {
        Decision d = new Decision();
        clock.setMillis(250);
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(1, d.remaining());
        assertEquals(750 * MS, d.resetAfterNanos());
        assertFalse(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(1, d.remaining());
        assertEquals(750 * MS, d.retryAfterNanos());
        assertFalse(limiter.tryAcquire(1, 4, clock.nanoTime(), d));
        assertEquals(Decision.NEVER, d.retryAfterNanos());
    }

    @Test
    void releaseGivesBackOnlyInTheSameWindow() {
        take(limiter, 1, 3);
        limiter.release(1, 1, clock.nanoTime());
        assertEquals("YN", take(limiter, 1, 2));
        clock.setMillis(1_000);
        take(limiter, 1, 3);
        limiter.release(1, 5, clock.nanoTime());
        assertEquals("YYYN", take(limiter, 1, 4));
    }
}
