package dev.sluice.table;

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
 * Claim 4: the table's races, on {@link KeyTable}'s public API with chosen keywords (see {@link TableHarness}: every
 * keyword here has home slot 0, so probe chains collide for certain). Claim vs claim of one new key ends with one
 * slot and one shared state; colliding keys keep independent states; an update racing with the reclaim of its idle
 * key is neither lost nor applied to the key that takes the slot; a reclaim racing with another insert loses neither.
 * Key states are fixed-window counters (limit 8); {@code T0} is in window 0, {@code T1} in window 1, where every key
 * last touched at {@code T0} is idle.
 */
public final class KeyTableRaces {

    static final long T0 = OneKey.NOW;
    static final long T1 = T0 + OneKey.WINDOW;
    static final long C1 = 0x1111L;
    static final long C2 = 0x2222L;

    private KeyTableRaces() {
    }

    /** Two actors put the same new long key (capacity 2: room for a wrong second slot). */
    @JCStressTest
    @Outcome(id = "2, 1, 2", expect = Expect.ACCEPTABLE, desc = "both admitted, one slot, one state counting both")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two slots for one key, or a count of 1: the key was put twice and its state split")
    @State
    public static class SameNewKey {
        private final TableHarness h = new TableHarness(false, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = h.take(TableHarness.K1, 0, T0);
        }

        @Actor
        public void actor2() {
            second = h.take(TableHarness.K1, 0, T0);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = (int) h.table.liveKeys();
            r.r3 = h.count(TableHarness.K1, 0, T0);
            h.free();
        }
    }

    /** Two actors put the same new string key (keyword and check lane), capacity 2. */
    @JCStressTest
    @Outcome(id = "2, 1, 2", expect = Expect.ACCEPTABLE, desc = "both admitted, one slot, one state counting both")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two slots for one key, or a count of 1: the key was put twice and its state split")
    @State
    public static class SameNewStringKey {
        private final TableHarness h = new TableHarness(true, 2);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = h.take(TableHarness.K1, C1, T0);
        }

        @Actor
        public void actor2() {
            second = h.take(TableHarness.K1, C1, T0);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = (int) h.table.liveKeys();
            r.r3 = h.count(TableHarness.K1, C1, T0);
            h.free();
        }
    }

    /** Two new long keys in one probe chain: one actor takes K1 twice, the other K2 once. */
    @JCStressTest
    @Outcome(id = "2, 2, 1", expect = Expect.ACCEPTABLE, desc = "two slots; K1 counts its 2, K2 its 1")
    @Outcome(expect = Expect.FORBIDDEN, desc = "any other count means the keys shared a slot or a state")
    @State
    public static class CollidingNewKeys {
        private final TableHarness h = new TableHarness(false, 2);

        @Actor
        public void actor1() {
            h.take(TableHarness.K1, 0, T0);
            h.take(TableHarness.K1, 0, T0);
        }

        @Actor
        public void actor2() {
            h.take(TableHarness.K2, 0, T0);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = (int) h.table.liveKeys();
            r.r2 = h.count(TableHarness.K1, 0, T0);
            r.r3 = h.count(TableHarness.K2, 0, T0);
            h.free();
        }
    }

    /** Two new string keys whose first fingerprint lanes are equal: only the check lane tells them apart. */
    @JCStressTest
    @Outcome(id = "2, 2, 1", expect = Expect.ACCEPTABLE, desc = "two slots; (K1, C1) counts its 2, (K1, C2) its 1")
    @Outcome(expect = Expect.FORBIDDEN, desc = "any other count means the check lane was not read with the keyword")
    @State
    public static class SameFirstLaneStringKeys {
        private final TableHarness h = new TableHarness(true, 2);

        @Actor
        public void actor1() {
            h.take(TableHarness.K1, C1, T0);
            h.take(TableHarness.K1, C1, T0);
        }

        @Actor
        public void actor2() {
            h.take(TableHarness.K1, C2, T0);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = (int) h.table.liveKeys();
            r.r2 = h.count(TableHarness.K1, C1, T0);
            r.r3 = h.count(TableHarness.K1, C2, T0);
            h.free();
        }
    }

    /**
     * A full table: K1 (idle at T1) and K2 share home slot 0; two fillers, live at T1, bring the stripe to its live-key
     * limit (3 of 4 slots). One actor updates K1 while the other puts K2, which can only take over K1's slot.
     * Result: K1's outcome, K2's outcome (1 admitted, -2 full), K1's count, K2's count (-1 absent).
     */
    @JCStressTest
    @Outcome(id = "1, -2, 1, -1", expect = Expect.ACCEPTABLE, desc = "K1's update first: K1 is live again, K2 finds the table full")
    @Outcome(id = "-2, 1, -1, 1", expect = Expect.ACCEPTABLE, desc = "K2's takeover first: K1's slot is K2's, K1 finds the table full")
    @Outcome(expect = Expect.FORBIDDEN, desc = "K1 admitted but absent or uncounted is a lost update; K2 counting 2 got K1's update")
    @State
    public static class UpdateVersusReclaim {
        private final TableHarness h = new TableHarness(false, 1);
        private int k1;
        private int k2;

        public UpdateVersusReclaim() {
            h.take(TableHarness.K1, 0, T0);
            h.take(TableHarness.HOME2, 0, T1);
            h.take(TableHarness.HOME3, 0, T1);
        }

        @Actor
        public void update() {
            k1 = h.take(TableHarness.K1, 0, T1);
        }

        @Actor
        public void reclaim() {
            k2 = h.take(TableHarness.K2, 0, T1);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = k1;
            r.r2 = k2;
            r.r3 = h.count(TableHarness.K1, 0, T1);
            r.r4 = h.count(TableHarness.K2, 0, T1);
            h.free();
        }
    }

    /**
     * A full table: slot 0 holds a live filler, slot 2 the idle key IDLE2 (home 2, not on K2's chain), slot 3 another
     * live filler. K2 (home 0) finds no idle key on its chain and no room, so it evicts IDLE2 elsewhere in the stripe
     * (a tombstone) and takes the empty slot 1, while the other actor updates IDLE2. Result: IDLE2's outcome, K2's
     * outcome, IDLE2's count, K2's count.
     */
    @JCStressTest
    @Outcome(id = "1, -2, 1, -1", expect = Expect.ACCEPTABLE, desc = "the update first: nothing is idle, K2 finds the table full")
    @Outcome(id = "-2, 1, -1, 1", expect = Expect.ACCEPTABLE, desc = "the eviction first: IDLE2 is gone and finds the table full")
    @Outcome(expect = Expect.FORBIDDEN, desc = "an admitted update that is absent or uncounted was lost; both admitted overfills the stripe")
    @State
    public static class UpdateVersusEviction {
        private final TableHarness h = new TableHarness(false, 1);
        private int idle;
        private int k2;

        public UpdateVersusEviction() {
            h.take(TableHarness.HOME0, 0, T1);
            h.take(TableHarness.IDLE2, 0, T0);
            h.take(TableHarness.HOME3, 0, T1);
        }

        @Actor
        public void update() {
            idle = h.take(TableHarness.IDLE2, 0, T1);
        }

        @Actor
        public void insert() {
            k2 = h.take(TableHarness.K2, 0, T1);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = idle;
            r.r2 = k2;
            r.r3 = h.count(TableHarness.IDLE2, 0, T1);
            r.r4 = h.count(TableHarness.K2, 0, T1);
            h.free();
        }
    }

    /**
     * Capacity 2: K1 is idle at T1. One actor touches K1 again while the other puts K2, which may take K1's slot;
     * K1 then goes to the empty slot. Result: K1's outcome, K2's outcome, K1's count, K2's count.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "both admitted, each counted once on its own slot, whichever came first")
    @Outcome(expect = Expect.FORBIDDEN, desc = "K1 lost its update, or K2 received it, or a key was refused with room left")
    @State
    public static class ReinsertVersusReclaim {
        private final TableHarness h = new TableHarness(false, 2);
        private int k1;
        private int k2;

        public ReinsertVersusReclaim() {
            h.take(TableHarness.K1, 0, T0);
        }

        @Actor
        public void touch() {
            k1 = h.take(TableHarness.K1, 0, T1);
        }

        @Actor
        public void reclaim() {
            k2 = h.take(TableHarness.K2, 0, T1);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = k1;
            r.r2 = k2;
            r.r3 = h.count(TableHarness.K1, 0, T1);
            r.r4 = h.count(TableHarness.K2, 0, T1);
            h.free();
        }
    }

    /**
     * Capacity 2: K1 is idle at T1. Two new keys K2 and K3 arrive together: one takes K1's slot, the other the empty
     * one. Result: admitted, K1's count, K2's count, K3's count.
     */
    @JCStressTest
    @Outcome(id = "2, -1, 1, 1", expect = Expect.ACCEPTABLE, desc = "K1 reclaimed; K2 and K3 each in a slot of their own, counted once")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a key refused with room left, two keys on one slot, or K1 still present with no room")
    @State
    public static class ReclaimVersusInsert {
        private final TableHarness h = new TableHarness(false, 2);
        private int k2;
        private int k3;

        public ReclaimVersusInsert() {
            h.take(TableHarness.K1, 0, T0);
        }

        @Actor
        public void insert2() {
            k2 = h.take(TableHarness.K2, 0, T1);
        }

        @Actor
        public void insert3() {
            k3 = h.take(TableHarness.K3, 0, T1);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = k2 + k3;
            r.r2 = h.count(TableHarness.K1, 0, T1);
            r.r3 = h.count(TableHarness.K2, 0, T1);
            r.r4 = h.count(TableHarness.K3, 0, T1);
            h.free();
        }
    }
}
