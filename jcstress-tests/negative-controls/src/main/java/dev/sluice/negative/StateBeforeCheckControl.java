package dev.sluice.negative;

import dev.sluice.jcstress.table.StaleCheckSlot;
import dev.sluice.table.KeyTable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Negative control of {@code dev.sluice.jcstress.table.CheckBeforeState}: the same setup and expectations, B
 * published in A's old slot by {@link StateBeforeCheck} instead of the table's put. JCStress must report the
 * FORBIDDEN outcome.
 */
@JCStressTest
@Outcome(id = "0, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "A's stale updater saw the slot is not A's; B was admitted on a fresh state, counts 1, in A's old slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "A's update landed in B's state (expected here: the check is written after the state)")
@State
public class StateBeforeCheckControl {

    private final StaleCheckSlot s = new StaleCheckSlot();
    private int stale;
    private int b;

    @Actor
    public void staleUpdaterOfA() {
        stale = s.staleUpdate();
    }

    @Actor
    public void putB() {
        KeyTable table = s.h.table;
        long previous = table.state(s.staleHandle) & Long.MAX_VALUE;
        StateBeforeCheck.publish(table, s.staleHandle, StaleCheckSlot.LANE, StaleCheckSlot.CHECK_B,
                s.h.algorithm.freshState(StaleCheckSlot.T2, previous));
        b = s.putB();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        r.r1 = stale;
        r.r2 = b;
        r.r3 = s.countB();
        r.r4 = s.bInStaleSlot();
        s.free();
    }
}
