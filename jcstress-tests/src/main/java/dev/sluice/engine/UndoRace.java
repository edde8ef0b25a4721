package dev.sluice.engine;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Exact undo racing with the key's other requests. The key (limit 1) is exhausted at {@code T1} by an admission whose
 * {@link Decision} the setup keeps; one actor undoes it while another asks, either after the window rolled over (or
 * the token refilled) at {@code T2 = T1 + W}, or in the same window at {@code T1}. The undo must give back exactly the
 * admission it names: never a permit of the later window or a credit past the bucket's size, never a permit twice.
 */
public final class UndoRace {

    static final long T1 = OneKey.NOW;
    static final long T2 = T1 + OneKey.WINDOW;

    private UndoRace() {
    }

    /** A key of {@code algorithm} (limit 1) exhausted at T1; the admission's decision in {@code admitted}. */
    static OneKey exhausted(Algorithm algorithm, Decision admitted) {
        OneKey key = new OneKey(algorithm, 1, 1, T1);
        if (!key.limiter.tryAcquire(OneKey.KEY, 1, T1, admitted)) {
            throw new IllegalStateException("setup denied its admission");
        }
        return key;
    }

    /** FIXED_WINDOW: undo of window 0's admission against a request in window 1. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "window 1's request admitted; the undo gave back nothing of window 1 (before or after the roll-over)")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the undo credited window 1: two admissions in one window of limit 1")
    @Outcome(expect = Expect.FORBIDDEN, desc = "window 1 starts fresh: its first request must be admitted")
    @State
    public static class FixedWindowUndoVersusRollOver {
        private final Decision admitted = new Decision();
        private final OneKey key = exhausted(Algorithm.FIXED_WINDOW, admitted);

        @Actor
        public void undo() {
            key.limiter.undo(OneKey.KEY, admitted);
        }

        @Actor
        public void takeInNextWindow(II_Result r) {
            r.r1 = key.takeAt(T2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = key.drainAndClose(T2);
        }
    }

    /** FIXED_WINDOW: undo against a request in the same window, which it may or may not find undone. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the undo came first and the request took the permit back")
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "the request came first and was denied; the undo left the permit for the arbiter")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "one undone permit granted twice")
    @Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "the undone permit was lost")
    @Outcome(expect = Expect.FORBIDDEN, desc = "no sequential order explains this")
    @State
    public static class FixedWindowUndoVersusTake {
        private final Decision admitted = new Decision();
        private final OneKey key = exhausted(Algorithm.FIXED_WINDOW, admitted);

        @Actor
        public void undo() {
            key.limiter.undo(OneKey.KEY, admitted);
        }

        @Actor
        public void take(II_Result r) {
            r.r1 = key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = key.drainAndClose(T1);
        }
    }

    /** TOKEN_BUCKET (burst 1): undo against a request after the token refilled at T2. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the refilled token taken; the undo restored the bucket before it or gave nothing after it")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the undo credited a token past the bucket's size of 1")
    @Outcome(expect = Expect.FORBIDDEN, desc = "the refilled token must be admitted")
    @State
    public static class TokenBucketUndoVersusRefill {
        private final Decision admitted = new Decision();
        private final OneKey key = exhausted(Algorithm.TOKEN_BUCKET, admitted);

        @Actor
        public void undo() {
            key.limiter.undo(OneKey.KEY, admitted);
        }

        @Actor
        public void takeAfterRefill(II_Result r) {
            r.r1 = key.takeAt(T2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = key.drainAndClose(T2);
        }
    }

    /** SLIDING_WINDOW_LOG: undo of the entry at T1 against a request at T2, when that entry has left the window. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the request admitted; the undo removed nothing of (T2 - W, T2]")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the undo removed the request's own entry: two admissions in one window")
    @Outcome(expect = Expect.FORBIDDEN, desc = "the entry at T1 has expired by T2: the request must be admitted")
    @State
    public static class SlidingLogUndoVersusExpiry {
        private final Decision admitted = new Decision();
        private final OneKey key = exhausted(Algorithm.SLIDING_WINDOW_LOG, admitted);

        @Actor
        public void undo() {
            key.limiter.undo(OneKey.KEY, admitted);
        }

        @Actor
        public void takeAfterExpiry(II_Result r) {
            r.r1 = key.takeAt(T2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = key.drainAndClose(T2);
        }
    }
}
