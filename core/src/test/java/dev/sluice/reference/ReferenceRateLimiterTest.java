package dev.sluice.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReferenceRateLimiterTest {

    private static final long MS = 1_000_000L;
    private static final long DAY_MS = 86_400_000L;
    private static final long KEY = 42L;

    private final ManualClock clock = new ManualClock();
    private final List<ReferenceRateLimiter> created = new ArrayList<>();

    @AfterEach
    void closeLimiters() {
        created.forEach(ReferenceRateLimiter::close);
    }

    private ReferenceRateLimiter limiter(Algorithm algorithm, long limit, long windowMillis) {
        return limiter(RateLimitConfig.of(algorithm, limit, Duration.ofMillis(windowMillis)));
    }

    private ReferenceRateLimiter limiter(RateLimitConfig config) {
        ReferenceRateLimiter limiter = new ReferenceRateLimiter(config, clock);
        created.add(limiter);
        return limiter;
    }

    /** How many of {@code attempts} single-permit requests on {@code KEY} are admitted now. */
    private static int admitted(ReferenceRateLimiter limiter, int attempts) {
        int admitted = 0;
        for (int i = 0; i < attempts; i++) {
            if (limiter.tryAcquire(KEY)) {
                admitted++;
            }
        }
        return admitted;
    }

    private Decision decide(ReferenceRateLimiter limiter, long permits) {
        Decision d = new Decision();
        limiter.tryAcquire(KEY, permits, clock.nanoTime(), d);
        return d;
    }

    private static void assertDecision(Decision d, boolean allowed, long limit, long remaining, long retryAfter,
            long resetAfter, long delay) {
        assertEquals(allowed, d.allowed(), () -> "allowed of " + d);
        assertEquals(limit, d.limit(), () -> "limit of " + d);
        assertEquals(remaining, d.remaining(), () -> "remaining of " + d);
        assertEquals(retryAfter, d.retryAfterNanos(), () -> "retryAfter of " + d);
        assertEquals(resetAfter, d.resetAfterNanos(), () -> "resetAfter of " + d);
        assertEquals(delay, d.delayNanos(), () -> "delay of " + d);
    }

    // ---- TOKEN_BUCKET: 4 per 1000 ms, so T = 250 ms and capacity 1000 ms of credit ----

    private ReferenceRateLimiter tokenBucket() {
        return limiter(Algorithm.TOKEN_BUCKET, 4, 1000);
    }

    @Test
    void tokenBucketStartsFullAndDeniesFifthRequest() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertEquals(4, admitted(limiter, 5));
    }

    @Test
    void tokenBucketRefillsOneTokenPerEmissionInterval() {
        ReferenceRateLimiter limiter = tokenBucket();
        admitted(limiter, 4);
        clock.setMillis(249);
        assertFalse(limiter.tryAcquire(KEY));
        clock.setMillis(250);
        assertEquals(1, admitted(limiter, 2));
    }

    @Test
    void tokenBucketAdmissionReportsRemainingAndReset() {
        assertDecision(decide(tokenBucket(), 1), true, 4, 3, 0, 250 * MS, 0);
    }

    @Test
    void tokenBucketDenialReportsRetryAndReset() {
        ReferenceRateLimiter limiter = tokenBucket();
        admitted(limiter, 4);
        clock.setMillis(100);
        assertDecision(decide(limiter, 1), false, 4, 0, 150 * MS, 900 * MS, 0);
    }

    @Test
    void tokenBucketWeightedDenialWaitsForAllItsCredit() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertTrue(limiter.tryAcquire(KEY, 3));
        assertDecision(decide(limiter, 2), false, 4, 1, 250 * MS, 750 * MS, 0);
    }

    @Test
    void tokenBucketIdleForDaysRefillsOnlyToCapacity() {
        ReferenceRateLimiter limiter = tokenBucket();
        admitted(limiter, 4);
        clock.setMillis(10 * DAY_MS);
        assertEquals(4, admitted(limiter, 10));
    }

    @Test
    void tokenBucketClockMovedBackwardsGrantsNothing() {
        ReferenceRateLimiter limiter = tokenBucket();
        clock.setMillis(5000);
        admitted(limiter, 4);
        clock.setMillis(1000);
        assertDecision(decide(limiter, 1), false, 4, 0, 250 * MS, 1000 * MS, 0);
        clock.setMillis(5250);
        assertEquals(1, admitted(limiter, 2));
    }

    @Test
    void tokenBucketChargesWeightedPermits() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertTrue(limiter.tryAcquire(KEY, 3));
        assertFalse(limiter.tryAcquire(KEY, 2));
        assertTrue(limiter.tryAcquire(KEY, 1));
        assertFalse(limiter.tryAcquire(KEY, 1));
    }

    @Test
    void tokenBucketNeverAdmitsMoreThanCapacity() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertDecision(decide(limiter, 5), false, 4, 4, Decision.NEVER, 0, 0);
        assertEquals(4, admitted(limiter, 5));
    }

    @Test
    void tokenBucketWithBurstHoldsOnlyTheBurst() {
        ReferenceRateLimiter limiter = limiter(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1))
                .withBurst(2));
        assertEquals(2, admitted(limiter, 3));
        clock.setMillis(100);
        assertDecision(decide(limiter, 1), true, 2, 0, 0, 200 * MS, 0);
    }

    @Test
    void tokenBucketRoundsEmissionIntervalUp() {
        ReferenceRateLimiter limiter = limiter(Algorithm.TOKEN_BUCKET, 3, 1); // T = ceil(1 ms / 3) = 333_334 ns
        admitted(limiter, 3);
        clock.setNanos(333_333);
        assertFalse(limiter.tryAcquire(KEY));
        clock.setNanos(333_334);
        assertTrue(limiter.tryAcquire(KEY));
    }

    @Test
    void tokenBucketReleaseGivesBackTokens() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertTrue(limiter.tryAcquire(KEY, 3));
        limiter.release(KEY, 2, clock.nanoTime());
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void tokenBucketReleaseNeverFillsBeyondCapacity() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertTrue(limiter.tryAcquire(KEY));
        limiter.release(KEY, Long.MAX_VALUE, clock.nanoTime());
        assertEquals(4, admitted(limiter, 5));
    }

    @Test
    void tokenBucketDeniesHugePermitsWithoutOverflow() {
        ReferenceRateLimiter limiter = tokenBucket();
        assertDecision(decide(limiter, Long.MAX_VALUE), false, 4, 4, Decision.NEVER, 0, 0);
    }

    // ---- LEAKY_BUCKET: a queue of 4 slots drained one per 250 ms ----

    private ReferenceRateLimiter leakyBucket() {
        return limiter(Algorithm.LEAKY_BUCKET, 4, 1000);
    }

    @Test
    void leakyBucketDelaysEachQueuedRequestByOneInterval() {
        ReferenceRateLimiter limiter = leakyBucket();
        assertDecision(decide(limiter, 1), true, 4, 3, 0, 250 * MS, 0);
        assertDecision(decide(limiter, 1), true, 4, 2, 0, 500 * MS, 250 * MS);
        assertDecision(decide(limiter, 1), true, 4, 1, 0, 750 * MS, 500 * MS);
        assertDecision(decide(limiter, 1), true, 4, 0, 0, 1000 * MS, 750 * MS);
    }

    @Test
    void leakyBucketDeniesWhenQueueFullWithoutDelay() {
        ReferenceRateLimiter limiter = leakyBucket();
        admitted(limiter, 4);
        assertDecision(decide(limiter, 1), false, 4, 0, 250 * MS, 1000 * MS, 0);
    }

    @Test
    void leakyBucketDrainsOneSlotPerInterval() {
        ReferenceRateLimiter limiter = leakyBucket();
        admitted(limiter, 4);
        clock.setMillis(250);
        assertDecision(decide(limiter, 1), true, 4, 0, 0, 1000 * MS, 750 * MS);
        assertFalse(limiter.tryAcquire(KEY));
    }

    @Test
    void leakyBucketDelaysWeightedRequestByQueueLevelBeforeIt() {
        ReferenceRateLimiter limiter = leakyBucket();
        assertDecision(decide(limiter, 2), true, 4, 2, 0, 500 * MS, 0);
        assertDecision(decide(limiter, 2), true, 4, 0, 0, 1000 * MS, 500 * MS);
    }

    @Test
    void leakyBucketNeverAdmitsMoreThanCapacity() {
        assertDecision(decide(leakyBucket(), 5), false, 4, 4, Decision.NEVER, 0, 0);
    }

    @Test
    void leakyBucketIdleForDaysEmptiesQueueOnly() {
        ReferenceRateLimiter limiter = leakyBucket();
        admitted(limiter, 4);
        clock.setMillis(3 * DAY_MS);
        assertDecision(decide(limiter, 1), true, 4, 3, 0, 250 * MS, 0);
        assertEquals(3, admitted(limiter, 5));
    }

    @Test
    void leakyBucketClockMovedBackwardsGrantsNothing() {
        ReferenceRateLimiter limiter = leakyBucket();
        clock.setMillis(5000);
        admitted(limiter, 4);
        clock.setMillis(0);
        assertFalse(limiter.tryAcquire(KEY));
    }

    // ---- FIXED_WINDOW: 3 per 1000 ms ----

    private ReferenceRateLimiter fixedWindow() {
        return limiter(Algorithm.FIXED_WINDOW, 3, 1000);
    }

    @Test
    void deniesFourthRequestInSameFixedWindow() {
        assertEquals(3, admitted(fixedWindow(), 4));
    }

    @Test
    void fixedWindowAdmitsAgainAtWindowBoundary() {
        ReferenceRateLimiter limiter = fixedWindow();
        admitted(limiter, 3);
        clock.setMillis(999);
        assertFalse(limiter.tryAcquire(KEY));
        clock.setMillis(1000);
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void fixedWindowsFallOnMultiplesOfTheWindowOfTheClock() {
        clock.setMillis(1500);
        ReferenceRateLimiter limiter = fixedWindow();
        admitted(limiter, 3);
        clock.setMillis(1999);
        assertFalse(limiter.tryAcquire(KEY));
        clock.setMillis(2000);
        assertTrue(limiter.tryAcquire(KEY));
    }

    @Test
    void fixedWindowAdmissionReportsRemainingAndReset() {
        ReferenceRateLimiter limiter = fixedWindow();
        clock.setMillis(200);
        assertDecision(decide(limiter, 1), true, 3, 2, 0, 800 * MS, 0);
    }

    @Test
    void fixedWindowDenialReportsRetryAtWindowEnd() {
        ReferenceRateLimiter limiter = fixedWindow();
        clock.setMillis(200);
        admitted(limiter, 3);
        clock.setMillis(300);
        assertDecision(decide(limiter, 1), false, 3, 0, 700 * MS, 700 * MS, 0);
    }

    @Test
    void fixedWindowNeverAdmitsMoreThanLimit() {
        assertDecision(decide(fixedWindow(), 4), false, 3, 3, Decision.NEVER, 0, 0);
    }

    @Test
    void fixedWindowIdleForDaysAdmitsOnlyTheLimit() {
        ReferenceRateLimiter limiter = fixedWindow();
        admitted(limiter, 3);
        clock.setMillis(5 * DAY_MS + 123);
        assertEquals(3, admitted(limiter, 5));
    }

    @Test
    void fixedWindowClockMovedBackIntoEarlierWindowGrantsNothing() {
        ReferenceRateLimiter limiter = fixedWindow();
        clock.setMillis(1500);
        admitted(limiter, 3);
        clock.setMillis(500);
        assertDecision(decide(limiter, 1), false, 3, 0, 500 * MS, 500 * MS, 0);
    }

    @Test
    void fixedWindowChargesWeightedPermits() {
        ReferenceRateLimiter limiter = fixedWindow();
        assertTrue(limiter.tryAcquire(KEY, 2));
        assertFalse(limiter.tryAcquire(KEY, 2));
        assertTrue(limiter.tryAcquire(KEY, 1));
    }

    @Test
    void fixedWindowReleaseInSameWindowGivesBackPermits() {
        ReferenceRateLimiter limiter = fixedWindow();
        admitted(limiter, 3);
        limiter.release(KEY, 2, clock.nanoTime());
        assertEquals(2, admitted(limiter, 3));
    }

    @Test
    void fixedWindowReleaseNeverGivesBackMoreThanTaken() {
        ReferenceRateLimiter limiter = fixedWindow();
        assertTrue(limiter.tryAcquire(KEY));
        limiter.release(KEY, 3, clock.nanoTime());
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void fixedWindowReleaseAfterWindowRolledGivesNothing() {
        ReferenceRateLimiter limiter = fixedWindow();
        admitted(limiter, 3);
        clock.setMillis(1000);
        limiter.release(KEY, 3, clock.nanoTime());
        assertEquals(3, admitted(limiter, 4));
    }

    // ---- SLIDING_WINDOW_COUNTER: 4 per 1000 ms ----

    private ReferenceRateLimiter slidingCounter() {
        return limiter(Algorithm.SLIDING_WINDOW_COUNTER, 4, 1000);
    }

    @Test
    void slidingCounterDeniesFifthRequestInFirstWindow() {
        assertEquals(4, admitted(slidingCounter(), 5));
    }

    @Test
    void slidingCounterWeighsPreviousWindowByItsOverlap() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(1250); // previous window weighs 4 * 750 / 1000 = 3
        assertEquals(1, admitted(limiter, 3));
    }

    @Test
    void slidingCounterAdmitsHalfOfPreviousAtMidWindow() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(1500);
        assertEquals(2, admitted(limiter, 3));
    }

    @Test
    void slidingCounterAdmissionReportsRemainingAndReset() {
        assertDecision(decide(slidingCounter(), 1), true, 4, 3, 0, 2000 * MS, 0);
    }

    @Test
    void slidingCounterDenialReportsRetryWhenPreviousWeighsLess() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(1250);
        assertDecision(decide(limiter, 1), true, 4, 0, 0, 1750 * MS, 0);
        // 4 * (1000 - e) / 1000 + 1 + 1 <= 4 from e = 500 ms on
        assertDecision(decide(limiter, 1), false, 4, 0, 250 * MS, 1750 * MS, 0);
    }

    @Test
    void slidingCounterRoundsPreviousWeightUpInRemaining() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(1100); // previous weighs 3.6: no room for 1, and it counts as 4 against remaining
        assertDecision(decide(limiter, 1), false, 4, 0, 150 * MS, 900 * MS, 0);
    }

    @Test
    void slidingCounterRetryReachesIntoNextWindow() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        // The next window starts with the previous at full weight 4: room for 1 once it weighs 3, at 1250 ms.
        assertDecision(decide(limiter, 1), false, 4, 0, 1250 * MS, 2000 * MS, 0);
        clock.setNanos(1250 * MS - 1);
        assertFalse(limiter.tryAcquire(KEY));
        clock.setNanos(1250 * MS);
        assertTrue(limiter.tryAcquire(KEY));
    }

    @Test
    void slidingCounterComparesExactlyAtEquality() {
        ReferenceRateLimiter limiter = limiter(Algorithm.SLIDING_WINDOW_COUNTER, 3, 3);
        admitted(limiter, 3);
        clock.setNanos(4 * MS - 1); // previous weighs 3 * (2 ms + 1 ns) / 3 ms, just over 2
        assertFalse(limiter.tryAcquire(KEY));
        clock.setNanos(4 * MS); // exactly 2: 2 + 0 + 1 <= 3
        assertEquals(1, admitted(limiter, 2));
    }

    @Test
    void slidingCounterStaysExactWhereProductsExceedLong() {
        Duration window = RateLimitConfig.MAX_WINDOW;
        long max = RateLimitConfig.maxLimit(Algorithm.SLIDING_WINDOW_COUNTER, window); // 2^29 - 1: L * W > 2^63
        ReferenceRateLimiter limiter = limiter(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, max, window));
        assertTrue(limiter.tryAcquire(KEY, max));
        clock.setNanos(window.toNanos() + window.toNanos() / 2); // previous weighs max / 2
        assertFalse(limiter.tryAcquire(KEY, max / 2 + 1));
        assertTrue(limiter.tryAcquire(KEY, max / 2));
    }

    @Test
    void slidingCounterForgetsWindowsOlderThanThePrevious() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(2000);
        assertEquals(4, admitted(limiter, 5));
    }

    @Test
    void slidingCounterIdleForDaysAdmitsOnlyTheLimit() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(7 * DAY_MS + 1);
        assertEquals(4, admitted(limiter, 6));
    }

    @Test
    void slidingCounterClockMovedBackIntoEarlierWindowGrantsNothing() {
        ReferenceRateLimiter limiter = slidingCounter();
        clock.setMillis(1500);
        admitted(limiter, 4);
        clock.setMillis(500);
        assertFalse(limiter.tryAcquire(KEY));
    }

    @Test
    void slidingCounterChargesWeightedPermits() {
        ReferenceRateLimiter limiter = slidingCounter();
        assertTrue(limiter.tryAcquire(KEY, 3));
        assertFalse(limiter.tryAcquire(KEY, 2));
        assertTrue(limiter.tryAcquire(KEY, 1));
    }

    @Test
    void slidingCounterNeverAdmitsMoreThanLimit() {
        assertDecision(decide(slidingCounter(), 5), false, 4, 4, Decision.NEVER, 0, 0);
    }

    @Test
    void slidingCounterReleaseInSameWindowGivesBackPermits() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        limiter.release(KEY, 3, clock.nanoTime());
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void slidingCounterReleaseNeverGivesBackMoreThanTaken() {
        ReferenceRateLimiter limiter = slidingCounter();
        assertTrue(limiter.tryAcquire(KEY));
        limiter.release(KEY, 3, clock.nanoTime());
        assertEquals(4, admitted(limiter, 5));
    }

    @Test
    void slidingCounterReleaseAfterWindowRolledGivesNothing() {
        ReferenceRateLimiter limiter = slidingCounter();
        admitted(limiter, 4);
        clock.setMillis(1500); // previous weighs 2
        limiter.release(KEY, 4, clock.nanoTime());
        assertEquals(2, admitted(limiter, 3));
    }

    // ---- SLIDING_WINDOW_LOG: 3 in any (t - 1000 ms, t] ----

    private ReferenceRateLimiter slidingLog() {
        return limiter(Algorithm.SLIDING_WINDOW_LOG, 3, 1000);
    }

    private static void acquireAt(ReferenceRateLimiter limiter, ManualClock clock, long... millis) {
        for (long m : millis) {
            clock.setMillis(m);
            assertTrue(limiter.tryAcquire(KEY), () -> "admitted at " + m + " ms");
        }
    }

    @Test
    void slidingLogDeniesFourthWithinAnyWindow() {
        ReferenceRateLimiter limiter = slidingLog();
        acquireAt(limiter, clock, 0, 100, 200);
        clock.setMillis(999);
        assertFalse(limiter.tryAcquire(KEY));
    }

    @Test
    void slidingLogAdmitsWhenOldestLeavesWindow() {
        ReferenceRateLimiter limiter = slidingLog();
        acquireAt(limiter, clock, 0, 100, 200);
        clock.setMillis(1000);
        assertEquals(1, admitted(limiter, 2));
        clock.setNanos(1100 * MS - 1);
        assertFalse(limiter.tryAcquire(KEY));
        clock.setMillis(1100);
        assertTrue(limiter.tryAcquire(KEY));
    }

    @Test
    void slidingLogAdmissionReportsRemainingAndReset() {
        ReferenceRateLimiter limiter = slidingLog();
        assertDecision(decide(limiter, 1), true, 3, 2, 0, 1000 * MS, 0);
        clock.setMillis(100);
        assertDecision(decide(limiter, 1), true, 3, 1, 0, 1000 * MS, 0);
    }

    @Test
    void slidingLogDenialReportsRetryWhenOldestLeaves() {
        ReferenceRateLimiter limiter = slidingLog();
        acquireAt(limiter, clock, 0, 100, 200);
        clock.setMillis(999);
        assertDecision(decide(limiter, 1), false, 3, 0, 1 * MS, 201 * MS, 0);
    }

    @Test
    void slidingLogWeightedDenialWaitsForEnoughRoom() {
        ReferenceRateLimiter limiter = slidingLog();
        assertTrue(limiter.tryAcquire(KEY, 2));
        clock.setMillis(500);
        assertDecision(decide(limiter, 2), false, 3, 1, 500 * MS, 500 * MS, 0);
        assertTrue(limiter.tryAcquire(KEY, 1));
    }

    @Test
    void slidingLogNeverAdmitsMoreThanLimit() {
        assertDecision(decide(slidingLog(), 4), false, 3, 3, Decision.NEVER, 0, 0);
    }

    @Test
    void slidingLogClockMovedBackwardsGrantsNothing() {
        ReferenceRateLimiter limiter = slidingLog();
        clock.setMillis(5000);
        admitted(limiter, 3);
        clock.setMillis(1000);
        assertDecision(decide(limiter, 1), false, 3, 0, 1000 * MS, 1000 * MS, 0);
    }

    @Test
    void slidingLogIdleForDaysAdmitsOnlyTheLimit() {
        ReferenceRateLimiter limiter = slidingLog();
        admitted(limiter, 3);
        clock.setMillis(2 * DAY_MS);
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void slidingLogReleaseNeverGivesBackMoreThanTaken() {
        ReferenceRateLimiter limiter = slidingLog();
        assertTrue(limiter.tryAcquire(KEY));
        limiter.release(KEY, 5, clock.nanoTime());
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    @Timeout(10)
    void slidingLogReleaseOfHugePermitsStopsAtEmpty() {
        ReferenceRateLimiter limiter = slidingLog();
        admitted(limiter, 3);
        limiter.release(KEY, Long.MAX_VALUE, clock.nanoTime());
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void slidingLogReleaseRemovesNewestTimestamps() {
        ReferenceRateLimiter limiter = slidingLog();
        acquireAt(limiter, clock, 0, 100, 200);
        limiter.release(KEY, 1, clock.nanoTime());
        clock.setMillis(300);
        assertTrue(limiter.tryAcquire(KEY));
        // The log is now 0, 100, 300: the next admission waits for 0 to leave.
        assertDecision(decide(limiter, 1), false, 3, 0, 700 * MS, 1000 * MS, 0);
    }

    // ---- Every algorithm ----

    private ReferenceRateLimiter threePerSecond(Algorithm algorithm) {
        return limiter(algorithm, 3, 1000);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void rejectsZeroPermits(Algorithm algorithm) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> threePerSecond(algorithm).tryAcquire(KEY, 0));
        assertEquals("permits must be >= 1, was 0", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void rejectsNegativePermitsOnRelease(Algorithm algorithm) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> threePerSecond(algorithm).release("k", -1, 0));
        assertEquals("permits must be >= 1, was -1", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void rejectsNullKey(Algorithm algorithm) {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> threePerSecond(algorithm).tryAcquire((CharSequence) null));
        assertEquals("key must not be null", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void rejectsNullDecision(Algorithm algorithm) {
        assertThrows(NullPointerException.class, () -> threePerSecond(algorithm).tryAcquire(KEY, 1, 0, null));
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void throwsOnEveryDecisionAfterClose(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        limiter.tryAcquire(KEY);
        limiter.close();
        assertClosed(() -> limiter.tryAcquire(KEY));
        assertClosed(() -> limiter.tryAcquire("k"));
        assertClosed(() -> limiter.tryAcquire(KEY, 1, 0, new Decision()));
        assertClosed(() -> limiter.tryAcquire("a", "b", 1, 0, null));
        assertClosed(() -> limiter.release(KEY, 1, 0));
        assertClosed(() -> limiter.release("k", 1, 0));
    }

    private static void assertClosed(org.junit.jupiter.api.function.Executable call) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call);
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void closeForgetsKeysAndIsIdempotent(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        limiter.tryAcquire(1L);
        limiter.tryAcquire("x");
        assertEquals(2, limiter.liveKeys());
        limiter.close();
        limiter.close();
        assertEquals(0, limiter.liveKeys());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void longFiveAndStringFiveAreDistinctKeys(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        while (limiter.tryAcquire(5L)) {
            assertEquals(1, limiter.liveKeys());
        }
        assertTrue(limiter.tryAcquire("5"));
        assertEquals(2, limiter.liveKeys());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void charSequencesWithSameCharactersAreOneKey(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        assertTrue(limiter.tryAcquire(new StringBuilder("ab"), 3));
        assertFalse(limiter.tryAcquire("ab"));
        assertEquals(1, limiter.liveKeys());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void twoPartKeysDoNotMergeAcrossTheSplit(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        assertTrue(limiter.tryAcquire("ab", "c", 3, 0, null));
        assertFalse(limiter.tryAcquire("ab", "c", 1, 0, null));
        assertTrue(limiter.tryAcquire("a", "bc", 1, 0, null));
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void releaseOfUnknownKeyCreatesNothing(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        limiter.release(KEY, 2, 0);
        assertEquals(0, limiter.liveKeys());
        assertEquals(3, admitted(limiter, 4));
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void neverReportsTableFull(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        for (long key = 0; key < 10_000; key++) {
            assertTrue(limiter.tryAcquire(key));
        }
        assertEquals(10_000, limiter.liveKeys());
        assertEquals(0, limiter.tableFullEvents());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void timeStopsAtHorizonSoNothingMoreIsAdmitted(Algorithm algorithm) {
        ReferenceRateLimiter limiter = threePerSecond(algorithm);
        assertEquals(3, admitted(limiter, 4));
        clock.setNanos(Long.MAX_VALUE - 1); // past the horizon: held at it
        assertEquals(3, admitted(limiter, 4));
        clock.setNanos(Long.MAX_VALUE);
        assertFalse(limiter.tryAcquire(KEY));
    }

    @Test
    void readingFarBeforeOriginCountsAsOrigin() {
        clock.setMillis(10_000);
        ReferenceRateLimiter limiter = fixedWindow();
        Decision d = new Decision();
        limiter.tryAcquire(KEY, 1, 5_000 * MS, d);
        assertDecision(d, true, 3, 2, 0, 1000 * MS, 0);
    }

    @Test
    void originBelowLongMinValueDoesNotOverflow() {
        // floorDiv(MIN_VALUE + 5, 1 s) * 1 s is below Long.MIN_VALUE; MIN_VALUE + 5 is 145_224_197 ns into its window.
        clock.setNanos(Long.MIN_VALUE + 5);
        ReferenceRateLimiter limiter = fixedWindow();
        assertDecision(decide(limiter, 1), true, 3, 2, 0, 1000 * MS - 145_224_197, 0);
        clock.setNanos(Long.MIN_VALUE + 5 + 854_775_803); // the next window
        assertEquals(3, admitted(limiter, 4));
    }

    @Test
    void readingMoreThanLongMaxFromOriginWrapsToBeforeItAndIsNoTimePassing() {
        clock.setMillis(-1000);
        ReferenceRateLimiter limiter = fixedWindow();
        assertEquals(3, admitted(limiter, 4));
        clock.setNanos(Long.MAX_VALUE); // Long.MAX_VALUE - (-1 s) wraps below 0: before the origin
        assertEquals(0, admitted(limiter, 4));
    }

    @Test
    void clockStepBackOnOneKeyHoldsTimeForAllKeys() {
        ReferenceRateLimiter limiter = fixedWindow();
        clock.setMillis(1500);
        assertTrue(limiter.tryAcquire(1L));
        clock.setMillis(500); // counts as 1500 ms: key 2 is in window 1, ends in 500 ms
        Decision d = new Decision();
        limiter.tryAcquire(2L, 1, clock.nanoTime(), d);
        assertDecision(d, true, 3, 2, 0, 500 * MS, 0);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void sixteenThreadsOnOneKeyAdmitExactlyTheLimit(Algorithm algorithm) throws Exception {
        ReferenceRateLimiter limiter = limiter(RateLimitConfig.of(algorithm, 100, Duration.ofSeconds(60)));
        clock.setMillis(1234);
        long[] perKey = runConcurrently(limiter, 16, 1, 100);
        assertEquals(100, perKey[0]);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void manyThreadsOnManyKeysAdmitExactlyTheLimitPerKey(Algorithm algorithm) throws Exception {
        ReferenceRateLimiter limiter = limiter(RateLimitConfig.of(algorithm, 10, Duration.ofSeconds(60)));
        long[] perKey = runConcurrently(limiter, 8, 32, 5);
        for (int key = 0; key < perKey.length; key++) {
            assertEquals(10, perKey[key], "key " + key);
        }
    }

    /** Every thread tries every key {@code attemptsPerKey} times, all starting together; admissions per key. */
    private static long[] runConcurrently(ReferenceRateLimiter limiter, int threads, int keys, int attemptsPerKey)
            throws Exception {
        AtomicLongArray admitted = new AtomicLongArray(keys);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int a = 0; a < attemptsPerKey; a++) {
                        for (int key = 0; key < keys; key++) {
                            if (limiter.tryAcquire(key)) {
                                admitted.incrementAndGet(key);
                            }
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        long[] result = new long[keys];
        for (int key = 0; key < keys; key++) {
            result[key] = admitted.get(key);
        }
        return result;
    }
}
