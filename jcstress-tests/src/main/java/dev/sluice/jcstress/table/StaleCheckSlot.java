package dev.sluice.jcstress.table;

import dev.sluice.support.OneKey;
import dev.sluice.support.TableHarness;
import dev.sluice.table.KeyTable;

/**
 * A slot of a real {@link KeyTable} (string keys, capacity 1: four slots, at most three live keys) set up so that an
 * updater holds a stale view of it while a new key with the same first lane is published there.
 *
 * <p>Key A = (keyword {@link #LANE}, check {@link #CHECK_A}) is put in slot 2 at {@link #T0}; its slot is kept as the
 * stale view. Fillers in slots 0 and 3 are live at {@link #T1}, so a third key put at T1 evicts A (idle at T1): A's
 * slot is emptied, its old check stays in the slot's check word, its state reads dead. At {@link #T2} every key is
 * idle, and B = (the same keyword, {@link #CHECK_B}) is put: it evicts the third key and is published in A's old slot
 * (its home). The stale updater then is the dangerous reader: a fresh state with B's keyword and A's check passes A's
 * {@code owns()}.
 */
public final class StaleCheckSlot {

    static final long T0 = OneKey.NOW;
    static final long T1 = T0 + OneKey.WINDOW;
    public static final long T2 = T1 + OneKey.WINDOW;
    /** Home slot 2 of a 4-slot stripe. */
    public static final long LANE = TableHarness.IDLE2;
    static final long CHECK_A = 0xA_0001L;
    public static final long CHECK_B = 0xB_0002L;
    /** How long the stale updater waits for the slot's state to come alive before it gives up. */
    private static final int SPINS = 1 << 14;

    public final TableHarness h = new TableHarness(true, 1);
    /** A's slot, read while A lived there. */
    public final long staleHandle;

    public StaleCheckSlot() {
        h.take(TableHarness.HOME0, 0, T1);
        h.take(LANE, CHECK_A, T0);
        h.take(TableHarness.HOME3, 0, T1);
        staleHandle = h.find(LANE, CHECK_A);
        if (h.take(TableHarness.K2, 0, T1) != TableHarness.ADMITTED || h.find(LANE, CHECK_A) != KeyTable.ABSENT) {
            throw new IllegalStateException("setup: A was not evicted");
        }
    }

    /**
     * A's updater on its stale slot, at T2: waits (bounded) for a live state, then checks ownership and CASes, as the
     * engine does. 1 if its update landed (in whatever state the slot held then), 0 if it saw the slot was not A's.
     */
    public int staleUpdate() {
        KeyTable table = h.table;
        for (int spins = 0; spins < SPINS; spins++) {
            long state = table.state(staleHandle);
            if (state < 0) {
                Thread.onSpinWait();
                continue;
            }
            if (!table.owns(staleHandle, LANE, CHECK_A)) {
                return 0;
            }
            long next = h.algorithm.acquire(state, T2, 1);
            if (table.casState(staleHandle, state, next)) {
                return 1;
            }
        }
        return 0;
    }

    /** B's first decision at T2, through the table's put: {@link TableHarness#ADMITTED} expected. */
    public int putB() {
        return h.take(LANE, CHECK_B, T2);
    }

    /** B's count at T2 ({@link TableHarness#ABSENT} if absent): 1 if its first decision met a fresh state. */
    public int countB() {
        return h.count(LANE, CHECK_B, T2);
    }

    /** 1 if B sits in A's old slot (the race this models took place), else 0. */
    public int bInStaleSlot() {
        return h.find(LANE, CHECK_B) == staleHandle ? 1 : 0;
    }

    public void free() {
        h.free();
    }
}
