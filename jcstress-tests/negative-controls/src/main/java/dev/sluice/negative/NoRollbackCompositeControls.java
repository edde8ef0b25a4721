package dev.sluice.negative;

import dev.sluice.service.CompositeRollback;
import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative control of the composite family: the expectations of {@code dev.sluice.service.CompositeRollback} against
 * {@link NoRollbackComposite}. JCStress must report a FORBIDDEN outcome (the denied request leaked its WIDE permit).
 */
public final class NoRollbackCompositeControls {

    private NoRollbackCompositeControls() {
    }

    /** As {@code CompositeRollback}: WIDE (2 per minute) before NARROW (1 per minute), two actors at one time. */
    @JCStressTest
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "one admitted; the denied request consumed nothing")
    @Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.FORBIDDEN, desc = "leak: the denied request kept its WIDE permit (expected here)")
    @Outcome(expect = Expect.FORBIDDEN, desc = "no sequential order explains this")
    @State
    public static class Rollback {
        private final NoRollbackComposite composite = new NoRollbackComposite(
                CompositeRollback.WIDE, CompositeRollback.NARROW);

        @Actor
        public void first(III_Result r) {
            r.r1 = composite.allow("u", "a", OneKey.NOW) ? 1 : 0;
        }

        @Actor
        public void second(III_Result r) {
            r.r2 = composite.allow("u", "a", OneKey.NOW) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = composite.firstGrants("u", "a", OneKey.NOW);
            composite.close();
        }
    }
}
