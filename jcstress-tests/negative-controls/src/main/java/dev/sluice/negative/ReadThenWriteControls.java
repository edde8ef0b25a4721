package dev.sluice.negative;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative controls of claims 1 and 2: the outcome expectations of
 * {@code dev.sluice.algorithm.FrozenTimeContention} and {@code RolloverRace}, run against
 * {@link ReadThenWriteLimiter} (a store instead of the CAS). JCStress must report a FORBIDDEN outcome for each:
 * if it does not, the positive tests' expectations would not catch a missing CAS either.
 */
public final class ReadThenWriteControls {

    private ReadThenWriteControls() {
    }

    /** As {@code FrozenTimeContention.TokenBucketTwoActorsOneLeft}. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one of the two admitted, the last permit gone")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted: the last permit granted twice (expected here: no CAS)")
    @State
    public static class TokenBucketTwoActorsOneLeft {
        private final ReadThenWriteLimiter limiter = new ReadThenWriteLimiter(Algorithm.TOKEN_BUCKET, 4, 1, OneKey.NOW);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = limiter.take(1, OneKey.NOW);
        }

        @Actor
        public void actor2() {
            second = limiter.take(1, OneKey.NOW);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = limiter.drainAndFree(OneKey.NOW);
        }
    }

    /**
     * As {@code FrozenTimeContention.TokenBucketFourActorsTwoLeft}. On a machine with fewer than four CPUs it runs on
     * virtual CPUs (actors time-sliced on the real ones), so it also proves that such a run still catches a race.
     */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 2) admitted, nothing left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted, or a leftover: a missing CAS (expected here)")
    @State
    public static class TokenBucketFourActorsTwoLeft {
        private final ReadThenWriteLimiter limiter = new ReadThenWriteLimiter(Algorithm.TOKEN_BUCKET, 4, 2, OneKey.NOW);
        private int first;
        private int second;
        private int third;
        private int fourth;

        @Actor
        public void actor1() {
            first = limiter.take(1, OneKey.NOW);
        }

        @Actor
        public void actor2() {
            second = limiter.take(1, OneKey.NOW);
        }

        @Actor
        public void actor3() {
            third = limiter.take(1, OneKey.NOW);
        }

        @Actor
        public void actor4() {
            fourth = limiter.take(1, OneKey.NOW);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third + fourth;
            r.r2 = limiter.drainAndFree(OneKey.NOW);
        }
    }

    /** As {@code FrozenTimeContention.FixedWindowTwoActorsTwoLeft}: both fit, so the defect shows as a lost update. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "both admitted and both counted")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a leftover permit after two admissions: a lost update (expected here: no CAS)")
    @State
    public static class FixedWindowTwoActorsTwoLeft {
        private final ReadThenWriteLimiter limiter = new ReadThenWriteLimiter(Algorithm.FIXED_WINDOW, 4, 2, OneKey.NOW);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = limiter.take(1, OneKey.NOW);
        }

        @Actor
        public void actor2() {
            second = limiter.take(1, OneKey.NOW);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = limiter.drainAndFree(OneKey.NOW);
        }
    }

    /** As {@code RolloverRace.FixedWindowMoveThenTake}. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the mover took the new permit")
    @Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the other took the new permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted in the new window of limit 1 (expected here: no CAS)")
    @State
    public static class FixedWindowMoveThenTake {
        static final long T1 = OneKey.NOW;
        static final long T2 = T1 + OneKey.WINDOW;
        private final ManualClock clock = new ManualClock();
        private final ReadThenWriteLimiter limiter = new ReadThenWriteLimiter(Algorithm.FIXED_WINDOW, 1, 0, T1);
        private int mover;
        private int other;

        public FixedWindowMoveThenTake() {
            clock.setNanos(T1);
        }

        @Actor
        public void moveThenTake() {
            clock.setNanos(T2);
            mover = limiter.take(1, clock.nanoTime());
        }

        @Actor
        public void take() {
            other = limiter.take(1, clock.nanoTime());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = mover;
            r.r2 = other;
            r.r3 = limiter.drainAndFree(T2);
        }
    }
}
