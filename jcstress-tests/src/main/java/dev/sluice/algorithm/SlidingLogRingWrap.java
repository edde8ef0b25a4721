package dev.sluice.algorithm;

import dev.sluice.Algorithm;
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
 * Claim 3: the sliding window log's ring wraps (limit 1, 2 and 4) and two admissions never reuse one ring slot. The
 * ring is full before the actors start; they race at {@code T1}. A timestamp lost to a reused slot shows in the
 * arbiter's later checks as a permit that should still be held but is granted again.
 */
public final class SlidingLogRingWrap {

    static final long W = OneKey.WINDOW;
    static final long T0 = W / 10;
    static final long T1 = T0 + W + W / 2;

    private SlidingLogRingWrap() {
    }

    /** Limit 1, its one entry (T0) expired at T1: exactly one of two wins the slot, and holds it for a window. */
    @JCStressTest
    @Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "one admitted; nothing left at T1 nor just before T1 + W; free at T1 + W")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted shares the one slot; a permit left at T1 means the winner's timestamp was lost")
    @State
    public static class LimitOne {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 1, 0, T0);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.takeAt(T1);
        }

        @Actor
        public void actor2() {
            second = key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = key.drain(T1) + key.drain(T1 + W - 1);
            r.r3 = key.drainAndClose(T1 + W);
        }
    }

    /** Limit 2, both entries (T0) expired at T1: both are admitted, into the two different slots. */
    @JCStressTest
    @Outcome(id = "2, 0, 2", expect = Expect.ACCEPTABLE, desc = "both admitted and both logged: nothing left until T1 + W, then 2")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial has no sequential explanation; a permit left before T1 + W means both wrote one slot")
    @State
    public static class LimitTwoBothExpired {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 2, 0, T0);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.takeAt(T1);
        }

        @Actor
        public void actor2() {
            second = key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = key.drain(T1 + W - 1);
            r.r3 = key.drainAndClose(T1 + W);
        }
    }

    /**
     * Limit 2, entries at T0 and T0 + 0.8 W: at T1 only the older has expired, so one of two is admitted and must
     * overwrite the older entry; the newer still holds its permit until T0 + 1.8 W.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "one admitted into the expired slot; at T0 + 1.8 W only the newer entry frees a permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is over-admission; other leftovers mean the wrong slot was overwritten or an entry was lost")
    @State
    public static class LimitTwoOneExpired {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 2, 1, T0);
        private int first;
        private int second;

        public LimitTwoOneExpired() {
            key.takeInSetup(T0 + 8 * W / 10);
        }

        @Actor
        public void actor1() {
            first = key.takeAt(T1);
        }

        @Actor
        public void actor2() {
            second = key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = key.drain(T1);
            r.r3 = key.drainAndClose(T0 + 18 * W / 10);
        }
    }

    /** Limit 2, wrapped ring, three requests on two CPUs at T1: exactly two admitted, both logged. */
    @JCStressTest
    @Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "two of three admitted; both logged, so nothing is left before T1 + W")
    @Outcome(expect = Expect.FORBIDDEN, desc = "three admitted is over-admission; fewer, or a leftover, is a lost or reused slot")
    @State
    public static class LimitTwoThreeRequests {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 2, 0, T0);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = key.takeAt(T1) + key.takeAt(T1);
        }

        @Actor
        public void actor2() {
            second = key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(T1 + W - 1);
        }
    }

    /**
     * Limit 4, its four entries (T0) expired at T1, one of them taken again at T1 before the actors start: of four
     * requests on two CPUs, exactly three admitted, into the three other slots.
     */
    @JCStressTest
    @Outcome(id = "3, 0, 4", expect = Expect.ACCEPTABLE, desc = "three of four admitted; all logged, so nothing is left until T1 + W, then 4")
    @Outcome(expect = Expect.FORBIDDEN, desc = "four admitted is over-admission; fewer, or a leftover, is a lost or reused slot")
    @State
    public static class LimitFourThreeLeftFourRequests {
        private final OneKey key = new OneKey(Algorithm.SLIDING_WINDOW_LOG, 4, 0, T0);
        private int first;
        private int second;

        public LimitFourThreeLeftFourRequests() {
            key.takeInSetup(T1);
        }

        @Actor
        public void actor1() {
            first = key.takeAt(T1) + key.takeAt(T1);
        }

        @Actor
        public void actor2() {
            second = key.takeAt(T1) + key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = key.drain(T1 + W - 1);
            r.r3 = key.drainAndClose(T1 + W);
        }
    }
}
