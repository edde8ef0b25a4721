package dev.sluice.jcstress.table;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Claim: a new key's check word is visible before its state, so an updater of the slot's previous key with the same
 * keyword, holding a stale view of the slot, never passes {@code owns()} on the fresh state: its update never lands in
 * the new key's state, and the new key's first decision sees a fresh state. On the real {@link
 * dev.sluice.table.KeyTable} (see {@link StaleCheckSlot}). Result: the stale update landed (1) or not (0), B's first
 * decision (1 admitted), B's count, whether B took A's old slot.
 */
@JCStressTest
@Outcome(id = "0, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "A's stale updater saw the slot is not A's; B was admitted on a fresh state, counts 1, in A's old slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "A's update landed in B's state (B counts 2), B's first decision met a used state, or B missed A's old slot")
@State
public class CheckBeforeState {

    private final StaleCheckSlot s = new StaleCheckSlot();
    private int stale;
    private int b;

    @Actor
    public void staleUpdaterOfA() {
        stale = s.staleUpdate();
    }

    @Actor
    public void putB() {
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
