package dev.sluice.negative;

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
 * Negative control of the undo family: the expectations of {@code dev.sluice.engine.UndoRace} with the undo replaced
 * by a credit, {@code release(key, permits, admitted.nowNanos())}. JCStress must report a FORBIDDEN outcome: a credit
 * that lands after the roll-over gives window 1 a second permit.
 */
public final class CreditForUndoControls {

    private static final long T1 = OneKey.NOW;
    private static final long T2 = T1 + OneKey.WINDOW;

    private CreditForUndoControls() {
    }

    /** As {@code UndoRace.FixedWindowUndoVersusRollOver}, the undo done as a credit. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "window 1's request admitted; nothing credited to window 1")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the credit landed in window 1 (expected here)")
    @Outcome(expect = Expect.FORBIDDEN, desc = "window 1 starts fresh: its first request must be admitted")
    @State
    public static class FixedWindowCreditVersusRollOver {
        private final Decision admitted = new Decision();
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 1, 1, T1);

        public FixedWindowCreditVersusRollOver() {
            if (!key.limiter.tryAcquire(OneKey.KEY, 1, T1, admitted)) {
                throw new IllegalStateException("setup denied its admission");
            }
        }

        @Actor
        public void creditInsteadOfUndo() {
            key.limiter.release(OneKey.KEY, admitted.permits(), admitted.nowNanos());
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
}
