package dev.sluice.algorithm;

import dev.sluice.Algorithm;
import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Claim 1: on one key at a frozen time with exactly {@code k} permits left, {@code n} racing requests of one permit
 * admit exactly {@code min(n, k)}; with weighted requests the admitted weights never exceed what was left. Every
 * algorithm: the four packed ones (one CAS per admission) and the sliding log (claim bit and ring).
 *
 * <p>Result: {@code r1} = permits admitted by the actors, {@code r2} = single permits the arbiter can still take at
 * the same time, so a lost update shows as a leftover. The limit is 4 per second; every call passes
 * {@code nowNanos = OneKey.NOW}. JCStress gives each actor its own CPU: the three- and four-actor tests run only on
 * machines with that many; the {@code TwoActorsFourRequests} tests put four requests on two CPUs.
 *
 * <p>The classes repeat one shape per algorithm on purpose: JCStress 0.16's annotation processor reads only a test
 * class's own methods ({@code getEnclosedElements}), so inherited {@code @Actor}s are not seen; the shared work lives
 * in {@link OneKey}.
 */
public final class FrozenTimeContention {

    private FrozenTimeContention() {
    }

    /** TOKEN_BUCKET, 1 | 1 with 1 of 4 left. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one of the two admitted, the last permit gone: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted means one permit was granted twice (over-admission); a leftover means an admission was lost")
    @State
    public static class TokenBucketTwoActorsOneLeft {
        private final OneKey key = new OneKey(Algorithm.TOKEN_BUCKET, 4, 1);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** TOKEN_BUCKET, 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "both admitted and both counted: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial with permits left is a spurious failure; a leftover permit after two admissions is a lost update")
    @State
    public static class TokenBucketTwoActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.TOKEN_BUCKET, 4, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** TOKEN_BUCKET, 1+1 | 1+1 with 3 of 4 left. */
    @JCStressTest
    @Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 3) of the four requests admitted, nothing left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than three admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class TokenBucketTwoActorsFourRequestsThreeLeft {
        private final OneKey key = new OneKey(Algorithm.TOKEN_BUCKET, 4, 3);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1) + key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1) + key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** TOKEN_BUCKET, 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(3, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class TokenBucketThreeActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.TOKEN_BUCKET, 4, 2);
        private int first;
        private int second;
        private int third;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** TOKEN_BUCKET, 1 | 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class TokenBucketFourActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.TOKEN_BUCKET, 4, 2);
        private int first;
        private int second;
        private int third;
        private int fourth;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Actor
        public void actor4() {
            fourth = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third + fourth;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** TOKEN_BUCKET, 2 | 3 with 4 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "the 2 came first (the 3 no longer fits): 2 admitted, 2 left")
    @Outcome(id = "3, 1", expect = Expect.ACCEPTABLE, desc = "the 3 came first (the 2 no longer fits): 3 admitted, 1 left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "5 admitted exceeds the 4 left; any other total or leftover matches no sequential order")
    @State
    public static class TokenBucketWeightedTwoAndThree {
        private final OneKey key = new OneKey(Algorithm.TOKEN_BUCKET, 4, 4);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(2);
        }

        @Actor
        public void actor2() {
            second = key.take(3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** LEAKY_BUCKET, 1 | 1 with 1 of 4 left. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one of the two admitted, the last permit gone: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted means one permit was granted twice (over-admission); a leftover means an admission was lost")
    @State
    public static class LeakyBucketTwoActorsOneLeft {
        private final OneKey key = new OneKey(Algorithm.LEAKY_BUCKET, 4, 1);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** LEAKY_BUCKET, 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "both admitted and both counted: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial with permits left is a spurious failure; a leftover permit after two admissions is a lost update")
    @State
    public static class LeakyBucketTwoActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.LEAKY_BUCKET, 4, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** LEAKY_BUCKET, 1+1 | 1+1 with 3 of 4 left. */
    @JCStressTest
    @Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 3) of the four requests admitted, nothing left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than three admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class LeakyBucketTwoActorsFourRequestsThreeLeft {
        private final OneKey key = new OneKey(Algorithm.LEAKY_BUCKET, 4, 3);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1) + key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1) + key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** LEAKY_BUCKET, 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(3, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class LeakyBucketThreeActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.LEAKY_BUCKET, 4, 2);
        private int first;
        private int second;
        private int third;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** LEAKY_BUCKET, 1 | 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class LeakyBucketFourActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.LEAKY_BUCKET, 4, 2);
        private int first;
        private int second;
        private int third;
        private int fourth;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Actor
        public void actor4() {
            fourth = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third + fourth;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** LEAKY_BUCKET, 2 | 3 with 4 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "the 2 came first (the 3 no longer fits): 2 admitted, 2 left")
    @Outcome(id = "3, 1", expect = Expect.ACCEPTABLE, desc = "the 3 came first (the 2 no longer fits): 3 admitted, 1 left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "5 admitted exceeds the 4 left; any other total or leftover matches no sequential order")
    @State
    public static class LeakyBucketWeightedTwoAndThree {
        private final OneKey key = new OneKey(Algorithm.LEAKY_BUCKET, 4, 4);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(2);
        }

        @Actor
        public void actor2() {
            second = key.take(3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** FIXED_WINDOW, 1 | 1 with 1 of 4 left. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one of the two admitted, the last permit gone: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted means one permit was granted twice (over-admission); a leftover means an admission was lost")
    @State
    public static class FixedWindowTwoActorsOneLeft {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 4, 1);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** FIXED_WINDOW, 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "both admitted and both counted: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial with permits left is a spurious failure; a leftover permit after two admissions is a lost update")
    @State
    public static class FixedWindowTwoActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 4, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** FIXED_WINDOW, 1+1 | 1+1 with 3 of 4 left. */
    @JCStressTest
    @Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 3) of the four requests admitted, nothing left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than three admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class FixedWindowTwoActorsFourRequestsThreeLeft {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 4, 3);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1) + key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1) + key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** FIXED_WINDOW, 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(3, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class FixedWindowThreeActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 4, 2);
        private int first;
        private int second;
        private int third;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** FIXED_WINDOW, 1 | 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class FixedWindowFourActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 4, 2);
        private int first;
        private int second;
        private int third;
        private int fourth;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Actor
        public void actor4() {
            fourth = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third + fourth;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** FIXED_WINDOW, 2 | 3 with 4 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "the 2 came first (the 3 no longer fits): 2 admitted, 2 left")
    @Outcome(id = "3, 1", expect = Expect.ACCEPTABLE, desc = "the 3 came first (the 2 no longer fits): 3 admitted, 1 left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "5 admitted exceeds the 4 left; any other total or leftover matches no sequential order")
    @State
    public static class FixedWindowWeightedTwoAndThree {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 4, 4);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(2);
        }

        @Actor
        public void actor2() {
            second = key.take(3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_COUNTER, 1 | 1 with 1 of 4 left. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one of the two admitted, the last permit gone: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted means one permit was granted twice (over-admission); a leftover means an admission was lost")
    @State
    public static class SlidingCounterTwoActorsOneLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_COUNTER, 4, 1);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_COUNTER, 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "both admitted and both counted: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial with permits left is a spurious failure; a leftover permit after two admissions is a lost update")
    @State
    public static class SlidingCounterTwoActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_COUNTER, 4, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_COUNTER, 1+1 | 1+1 with 3 of 4 left. */
    @JCStressTest
    @Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 3) of the four requests admitted, nothing left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than three admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class SlidingCounterTwoActorsFourRequestsThreeLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_COUNTER, 4, 3);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1) + key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1) + key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_COUNTER, 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(3, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class SlidingCounterThreeActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_COUNTER, 4, 2);
        private int first;
        private int second;
        private int third;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_COUNTER, 1 | 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class SlidingCounterFourActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_COUNTER, 4, 2);
        private int first;
        private int second;
        private int third;
        private int fourth;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Actor
        public void actor4() {
            fourth = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third + fourth;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_COUNTER, 2 | 3 with 4 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "the 2 came first (the 3 no longer fits): 2 admitted, 2 left")
    @Outcome(id = "3, 1", expect = Expect.ACCEPTABLE, desc = "the 3 came first (the 2 no longer fits): 3 admitted, 1 left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "5 admitted exceeds the 4 left; any other total or leftover matches no sequential order")
    @State
    public static class SlidingCounterWeightedTwoAndThree {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_COUNTER, 4, 4);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(2);
        }

        @Actor
        public void actor2() {
            second = key.take(3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_LOG, 1 | 1 with 1 of 4 left. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one of the two admitted, the last permit gone: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted means one permit was granted twice (over-admission); a leftover means an admission was lost")
    @State
    public static class SlidingLogTwoActorsOneLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 1);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_LOG, 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "both admitted and both counted: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial with permits left is a spurious failure; a leftover permit after two admissions is a lost update")
    @State
    public static class SlidingLogTwoActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_LOG, 1+1 | 1+1 with 3 of 4 left. */
    @JCStressTest
    @Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 3) of the four requests admitted, nothing left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than three admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class SlidingLogTwoActorsFourRequestsThreeLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 3);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(1) + key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1) + key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_LOG, 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(3, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class SlidingLogThreeActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 2);
        private int first;
        private int second;
        private int third;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_LOG, 1 | 1 | 1 | 1 with 2 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "exactly min(4, 2) admitted, nothing left: the only sequential outcome")
    @Outcome(expect = Expect.FORBIDDEN, desc = "more than two admitted is over-admission; fewer, or a leftover, is a lost or spurious decision")
    @State
    public static class SlidingLogFourActorsTwoLeft {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 2);
        private int first;
        private int second;
        private int third;
        private int fourth;

        @Actor
        public void actor1() {
            first = key.take(1);
        }

        @Actor
        public void actor2() {
            second = key.take(1);
        }

        @Actor
        public void actor3() {
            third = key.take(1);
        }

        @Actor
        public void actor4() {
            fourth = key.take(1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second + third + fourth;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }

    /** SLIDING_WINDOW_LOG, 2 | 3 with 4 of 4 left. */
    @JCStressTest
    @Outcome(id = "2, 2", expect = Expect.ACCEPTABLE, desc = "the 2 came first (the 3 no longer fits): 2 admitted, 2 left")
    @Outcome(id = "3, 1", expect = Expect.ACCEPTABLE, desc = "the 3 came first (the 2 no longer fits): 3 admitted, 1 left")
    @Outcome(expect = Expect.FORBIDDEN, desc = "5 admitted exceeds the 4 left; any other total or leftover matches no sequential order")
    @State
    public static class SlidingLogWeightedTwoAndThree {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 4);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.take(2);
        }

        @Actor
        public void actor2() {
            second = key.take(3);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(OneKey.NOW);
        }
    }
}
