package dev.sluice.negative;

import dev.sluice.service.AdditiveRollback;
import dev.sluice.service.AdditiveRollbackAcrossApis;
import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative controls of the additive family: the expectations of {@code dev.sluice.service.AdditiveRollback} and
 * {@code AdditiveRollbackAcrossApis} against {@link NoUndoAdditive}. JCStress must report a FORBIDDEN outcome (the
 * denied request leaked its pair's permit).
 */
public final class NoUndoAdditiveControls {

    private NoUndoAdditiveControls() {
    }

    /** As {@code AdditiveRollback}: PAIR (2 per minute) before TOTAL (1 per minute), both actors on (u, a). */
    @JCStressTest
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "one admitted; the denied request left PAIR as it found it")
    @Outcome(id = {"1, 1, 0", "1, 1, 1", "1, 1, 2"}, expect = Expect.FORBIDDEN, desc = "over-admission: both passed TOTAL's one permit")
    @Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.FORBIDDEN, desc = "leak: the denied request kept its permit of PAIR (expected here)")
    @Outcome(expect = Expect.FORBIDDEN, desc = "no sequential order explains this")
    @State
    public static class OnePair {
        private final NoUndoAdditive additive = new NoUndoAdditive(AdditiveRollback.PAIR, AdditiveRollback.TOTAL);

        @Actor
        public void first(III_Result r) {
            r.r1 = additive.allow("u", "a", OneKey.NOW) ? 1 : 0;
        }

        @Actor
        public void second(III_Result r) {
            r.r2 = additive.allow("u", "a", OneKey.NOW) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = additive.pairGrants("u", "a", OneKey.NOW) + additive.pairGrants("u", "a", OneKey.NOW);
            additive.close();
        }
    }

    /** As {@code AdditiveRollbackAcrossApis}: a pair of 1 per minute each, a shared total of 1, on (u, a) and (u, b). */
    @JCStressTest
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "one admitted; the loser's pair kept its permit")
    @Outcome(id = {"1, 1, 0", "1, 1, 1", "1, 1, 2"}, expect = Expect.FORBIDDEN, desc = "over-admission: both passed the user's one permit")
    @Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.FORBIDDEN, desc = "leak: the denied request kept its pair's permit (expected here)")
    @Outcome(expect = Expect.FORBIDDEN, desc = "no sequential order explains this")
    @State
    public static class AcrossApis {
        private final NoUndoAdditive additive = new NoUndoAdditive(AdditiveRollbackAcrossApis.PAIR,
                AdditiveRollbackAcrossApis.TOTAL);

        @Actor
        public void first(III_Result r) {
            r.r1 = additive.allow("u", "a", OneKey.NOW) ? 1 : 0;
        }

        @Actor
        public void second(III_Result r) {
            r.r2 = additive.allow("u", "b", OneKey.NOW) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = additive.pairGrants("u", "a", OneKey.NOW) + additive.pairGrants("u", "b", OneKey.NOW);
            additive.close();
        }
    }
}
