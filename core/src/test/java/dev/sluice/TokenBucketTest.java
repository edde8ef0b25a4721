package dev.sluice;

import static dev.sluice.LimiterTestSupport.MS;
import static dev.sluice.LimiterTestSupport.limiter;
import static dev.sluice.LimiterTestSupport.take;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimiter limiter = limiter(Algorithm.TOKEN_BUCKET, 5, 1000, clock);

    @AfterEach
    void close() {
        limiter.close();
    }

    @Test
    void startsFullAndAdmitsTheWholeBurstAtOnce() {
        assertEquals("YYYYYN", take(limiter, 1, 6));
    }

    @Test
    void refillsOnePermitPerEmissionInterval() {
        take(limiter, 1, 5);
        clock.advanceMillis(199);
        assertEquals("N", take(limiter, 1, 1));
        clock.advanceMillis(1);
        assertEquals("YN", take(limiter, 1, 2));
    }

    @Test
    void idleForDaysRefillsOnlyUpToCapacity() {
        take(limiter, 1, 5);
        clock.advance(Duration.ofDays(3));
        assertEquals("YYYYYN", take(limiter, 1, 6));
    }

    @Test
    void clockSteppingBackGrantsNothing() {
        clock.setMillis(5_000);
        take(limiter, 1, 5);
        clock.setMillis(1_000);
        assertEquals("N", take(limiter, 1, 1));
        clock.setMillis(5_199);
        assertEquals("N", take(limiter, 1, 1));
        clock.setMillis(5_200);
        assertEquals("Y", take(limiter, 1, 1));
    }

    @Test
    void weightedPermitsTakeTheirWeight() {
        assertTrue(limiter.tryAcquire(1, 3));
        assertFalse(limiter.tryAcquire(1, 3));
        assertTrue(limiter.tryAcquire(1, 2));
        assertFalse(limiter.tryAcquire(1, 1));
    }

    @Test
    void moreThanTheLimitIsNeverAdmittedAndSaysSo() {
        Decision d = new Decision();
        clock.advance(Duration.ofDays(1));
        assertFalse(limiter.tryAcquire(1, 6, clock.nanoTime(), d));
        assertEquals(Decision.NEVER, d.retryAfterNanos());
        assertEquals(5, d.remaining());
    }

    @Test
    void nonPositivePermitsAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter.tryAcquire(1, 0));
        assertTrue(e.getMessage().contains("permits"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> limiter.tryAcquire("k", -1));
    }

    @Test
    void decisionTellsRemainingResetAndRetryAfter() {
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(3, d.remaining());
        assertEquals(400 * MS, d.resetAfterNanos());
        assertEquals(0, d.retryAfterNanos());
        assertTrue(limiter.tryAcquire(1, 3, clock.nanoTime(), d));
        assertEquals(0, d.remaining());
        assertFalse(limiter.tryAcquire(1, 2, clock.nanoTime(), d));
        assertEquals(400 * MS, d.retryAfterNanos());
        assertEquals(1000 * MS, d.resetAfterNanos());
        clock.advanceMillis(150);
        assertFalse(limiter.tryAcquire(1, 1, clock.nanoTime(), d));
        assertEquals(50 * MS, d.retryAfterNanos());
        assertEquals(0, d.delayNanos());
    }

    @Test
    void separateBurstCapsTheBucketBelowTheRate() {
        try (RateLimiter bursty = RateLimiter.builder(
                RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofMinutes(1)).withBurst(10))
                .clock(clock).maxKeys(16).build()) {
            assertEquals("YYYYYYYYYYN", take(bursty, 7, 11));
            clock.advanceMillis(599);
            assertEquals("N", take(bursty, 7, 1));
            clock.advanceMillis(1);
            assertEquals("YN", take(bursty, 7, 2));
            clock.advance(Duration.ofHours(1));
            assertEquals("YYYYYYYYYYN", take(bursty, 7, 11));
        }
    }

    @Test
    void emissionIntervalRoundsUpSoItNeverAdmitsMoreThanTheIdealBucket() {
        try (RateLimiter thirds = limiter(Algorithm.TOKEN_BUCKET, 3, 1000, clock)) {
            take(thirds, 1, 3);
            clock.setNanos(333_333_333L);
            assertEquals("N", take(thirds, 1, 1));
            clock.setNanos(333_333_334L);
            assertEquals("YN", take(thirds, 1, 2));
        }
    }

    @Test
    void keysAreIndependentAndLongAndStringKeysDiffer() {
        assertEquals("YYYYYN", take(limiter, 5, 6));
        assertEquals("YYYYYN", take(limiter, 6, 6));
        assertTrue(limiter.tryAcquire("5", 5));
        assertFalse(limiter.tryAcquire("5"));
    }

    @Test
    void releaseGivesBackPermitsButNeverBeyondFull() {
        assertTrue(limiter.tryAcquire(1, 5));
        limiter.release(1, 2, clock.nanoTime());
        assertEquals("YYN", take(limiter, 1, 3));
        clock.advanceMillis(10_000);
        limiter.release(1, 3, clock.nanoTime());
        assertEquals("YYYYYN", take(limiter, 1, 6));
    }

    @Test
    void useAfterCloseThrowsAClearError() {
        limiter.tryAcquire(1);
        limiter.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> limiter.tryAcquire(1));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> limiter.tryAcquire("never-seen"));
        limiter.close();
    }
}
