package dev.sluice;

import static dev.sluice.LimiterTestSupport.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Undo gives back exactly what one admission took, on the engine and on the reference alike, on a ManualClock. */
class UndoTest {

    private static final long KEY = 7;

    private static RateLimiter limiter(boolean reference, Algorithm algorithm, long limit, long windowMillis,
            ManualClock clock) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, limit, Duration.ofMillis(windowMillis));
        return reference ? new ReferenceRateLimiter(config, clock)
                : RateLimiter.builder(config).clock(clock).maxKeys(1024).build();
    }

    private static Decision admit(RateLimiter limiter, long now) {
        Decision d = new Decision();
        assertTrue(limiter.tryAcquire(KEY, 1, now, d), "setup admission at " + now);
        return d;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void fixedWindowUndoInItsWindowGivesThePermitBack(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.FIXED_WINDOW, 3, 1000, clock)) {
            Decision a = admit(l, 0);
            admit(l, 0);
            admit(l, 0);
            l.undo(KEY, a);
            assertTrue(l.tryAcquire(KEY, 1, 10 * MS));
            assertFalse(l.tryAcquire(KEY, 1, 10 * MS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void fixedWindowUndoAfterTheWindowRolledGivesNothingOfTheNextWindow(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.FIXED_WINDOW, 3, 1000, clock)) {
            Decision a = admit(l, 900 * MS);
            for (int i = 0; i < 3; i++) {
                admit(l, 1000 * MS);
            }
            l.undo(KEY, a);
            assertFalse(l.tryAcquire(KEY, 1, 1000 * MS), "a fourth in the second window");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void slidingCounterUndoAfterTheWindowRolledTakesOffThePreviousCount(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.SLIDING_WINDOW_COUNTER, 2, 1000, clock)) {
            Decision a = admit(l, 0);
            admit(l, 0);
            assertFalse(l.tryAcquire(KEY, 1, 1000 * MS), "the previous window weighs 2 at its end");
            l.undo(KEY, a);
            assertTrue(l.tryAcquire(KEY, 1, 1000 * MS));
            assertFalse(l.tryAcquire(KEY, 1, 1000 * MS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void slidingCounterUndoTwoWindowsLaterGivesNothing(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.SLIDING_WINDOW_COUNTER, 2, 1000, clock)) {
            Decision a = admit(l, 0);
            admit(l, 2000 * MS);
            admit(l, 2000 * MS);
            l.undo(KEY, a);
            assertFalse(l.tryAcquire(KEY, 1, 2000 * MS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void slidingLogUndoRemovesOnlyThatAdmissionAfterAnotherLanded(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.SLIDING_WINDOW_LOG, 2, 1000, clock)) {
            Decision a = admit(l, 0);
            admit(l, 500 * MS);
            l.undo(KEY, a);
            assertTrue(l.tryAcquire(KEY, 1, 600 * MS), "the room A held");
            assertFalse(l.tryAcquire(KEY, 1, 600 * MS));
            assertFalse(l.tryAcquire(KEY, 1, 1400 * MS), "the entries at 500 and 600 still count");
            assertTrue(l.tryAcquire(KEY, 1, 1500 * MS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void slidingLogUndoOfAnEntryOutOfTheWindowGivesNothing(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.SLIDING_WINDOW_LOG, 2, 1000, clock)) {
            Decision a = admit(l, 0);
            admit(l, 1000 * MS);
            admit(l, 1000 * MS);
            l.undo(KEY, a);
            assertFalse(l.tryAcquire(KEY, 1, 1000 * MS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void bucketUndoWithNothingBetweenRestoresTheBucket(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.TOKEN_BUCKET, 4, 4000, clock)) {
            admit(l, 0);
            admit(l, 0);
            Decision a = admit(l, 0);
            l.undo(KEY, a);
            assertEquals(2, LimiterTestSupport.takeAt(l, KEY, 5, 0), "the burst of 4 minus the 2 kept");
        }
    }

    /** Burst 1, T = 1 s: crediting A after B took the refill would let a second request in at 5 s. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void bucketUndoAfterAnotherAdmissionOnARefillGivesNothing(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.TOKEN_BUCKET, 1, 1000, clock)) {
            Decision a = admit(l, 0);
            admit(l, 5000 * MS);
            l.undo(KEY, a);
            assertFalse(l.tryAcquire(KEY, 1, 5000 * MS));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void undoOfADeniedDecisionDoesNothing(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.FIXED_WINDOW, 1, 1000, clock)) {
            admit(l, 0);
            Decision denied = new Decision();
            assertFalse(l.tryAcquire(KEY, 1, 0, denied));
            l.undo(KEY, denied);
            assertFalse(l.tryAcquire(KEY, 1, 0));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aSecondUndoOfTheSameDecisionDoesNothing(Algorithm algorithm) {
        for (boolean reference : new boolean[] {false, true}) {
            ManualClock clock = new ManualClock();
            try (RateLimiter l = limiter(reference, algorithm, 2, 1000, clock)) {
                admit(l, 0);
                Decision b = admit(l, 0);
                l.undo(KEY, b);
                l.undo(KEY, b);
                assertEquals(1, LimiterTestSupport.takeAt(l, KEY, 3, 0), algorithm + " reference " + reference);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void stringAndTwoPartKeysUndoTheirOwnAdmission(boolean reference) {
        ManualClock clock = new ManualClock();
        try (RateLimiter l = limiter(reference, Algorithm.FIXED_WINDOW, 1, 1000, clock)) {
            Decision s = new Decision();
            Decision p = new Decision();
            assertTrue(l.tryAcquire("alice", 1, 0, s));
            assertTrue(l.tryAcquire("alice", "api", 1, 0, p));
            l.undo("alice", s);
            l.undo("alice", "api", p);
            assertTrue(l.tryAcquire("alice", 1, 0));
            assertTrue(l.tryAcquire("alice", "api", 1, 0, null));
        }
    }

    /**
     * A composite whose second part denies undoes the first part's admission: whatever the interleaving of acquires,
     * undos, window edges and refills, the admissions not undone never exceed the limit in any window (for the
     * buckets: they pass a fresh GCRA of the same burst, in order).
     */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void admissionsNotUndoneNeverExceedTheLimit(Algorithm algorithm) {
        for (boolean reference : new boolean[] {false, true}) {
            for (long seed = 1; seed <= 20; seed++) {
                checkRandomRollbacks(reference, algorithm, seed);
            }
        }
    }

    private static void checkRandomRollbacks(boolean reference, Algorithm algorithm, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long limit = 3;
        long window = 1000 * MS;
        ManualClock clock = new ManualClock();
        List<long[]> kept = new ArrayList<>(); // {time, permits}
        List<Decision> outstanding = new ArrayList<>();
        List<Long> outstandingTimes = new ArrayList<>();
        try (RateLimiter l = limiter(reference, algorithm, limit, 1000, clock)) {
            long now = 0;
            for (int i = 0; i < 400; i++) {
                now += random.nextInt(4) == 0 ? window / 3 * random.nextInt(3) : random.nextLong(window / 10);
                if (!outstanding.isEmpty() && random.nextInt(3) == 0) {
                    int k = random.nextInt(outstanding.size());
                    l.undo(KEY, outstanding.remove(k));
                    long t = outstandingTimes.remove(k);
                    removeOne(kept, t);
                    continue;
                }
                Decision d = new Decision();
                if (l.tryAcquire(KEY, 1, now, d)) {
                    kept.add(new long[] {now, 1});
                    outstanding.add(d);
                    outstandingTimes.add(now);
                }
            }
        }
        String where = algorithm + " reference " + reference + " seed " + seed;
        if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET) {
            long t = window / limit;
            long tat = Long.MIN_VALUE / 2;
            for (long[] e : kept) {
                long next = Math.max(tat, e[0]) + t;
                assertTrue(next - e[0] <= limit * t, where + " at " + e[0]);
                tat = next;
            }
        } else if (algorithm == Algorithm.FIXED_WINDOW) {
            for (long[] e : kept) {
                long w = e[0] / window;
                assertTrue(kept.stream().filter(x -> x[0] / window == w).count() <= limit, where + " window " + w);
            }
        } else {
            // Sliding counter and log: never more than the limit in any sliding window (the counter's estimate
            // weighs the previous window, so it never admits more than the log would).
            long bound = algorithm == Algorithm.SLIDING_WINDOW_LOG ? limit : 2 * limit;
            for (long[] e : kept) {
                long in = kept.stream().filter(x -> x[0] > e[0] - window && x[0] <= e[0]).count();
                assertTrue(in <= bound, where + " at " + e[0]);
            }
        }
    }

    private static void removeOne(List<long[]> kept, long time) {
        for (int i = kept.size() - 1; i >= 0; i--) {
            if (kept.get(i)[0] == time) {
                kept.remove(i);
                return;
            }
        }
    }
}
