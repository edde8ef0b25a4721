package dev.sluice.negative;

import dev.sluice.support.OneKey;
import dev.sluice.support.TableHarness;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative controls of claim 4: the expectations of {@code dev.sluice.table.KeyTableRaces} against
 * {@link BrokenTable}. JCStress must report a FORBIDDEN outcome for each.
 */
public final class BrokenTableControls {

    static final long T0 = OneKey.NOW;
    static final long T1 = T0 + OneKey.WINDOW;

    private BrokenTableControls() {
    }

    /** As {@code KeyTableRaces.SameNewKey}, without the stripe monitor. */
    @JCStressTest
    @Outcome(id = "2, 1, 2", expect = Expect.ACCEPTABLE, desc = "both admitted, one slot, one state counting both")
    @Outcome(expect = Expect.FORBIDDEN, desc = "the key put twice (expected here: no monitor)")
    @State
    public static class SameNewKeyNoMonitor {
        private final BrokenTable t = new BrokenTable(BrokenTable.Defect.NO_MONITOR, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = t.take(TableHarness.K1, T0);
        }

        @Actor
        public void actor2() {
            second = t.take(TableHarness.K1, T0);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = t.usedSlots();
            r.r3 = t.count(TableHarness.K1, T0);
        }
    }

    /** As {@code KeyTableRaces.UpdateVersusReclaim}, taking over the idle slot without the CAS to DEAD. */
    @JCStressTest
    @Outcome(id = "1, -2, 1, -1", expect = Expect.ACCEPTABLE, desc = "K1's update first: K2 finds the table full")
    @Outcome(id = "-2, 1, -1, 1", expect = Expect.ACCEPTABLE, desc = "K2's reclaim first: K1 finds the table full")
    @Outcome(expect = Expect.FORBIDDEN, desc = "K1 admitted but gone: its update was overwritten (expected here: no DEAD CAS)")
    @State
    public static class UpdateVersusReclaimNoDeadCas {
        private final BrokenTable t = new BrokenTable(BrokenTable.Defect.NO_DEAD_CAS, 1);
        private int k1;
        private int k2;

        public UpdateVersusReclaimNoDeadCas() {
            t.take(TableHarness.K1, T0);
        }

        @Actor
        public void update() {
            k1 = t.take(TableHarness.K1, T1);
        }

        @Actor
        public void reclaim() {
            k2 = t.take(TableHarness.K2, T1);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = k1;
            r.r2 = k2;
            r.r3 = t.count(TableHarness.K1, T1);
            r.r4 = t.count(TableHarness.K2, T1);
        }
    }
}
