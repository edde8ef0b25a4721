package dev.sluice.engine;

import dev.sluice.Decision;
import dev.sluice.algorithm.PackedAlgorithm;
import dev.sluice.table.KeyTable;
import dev.sluice.table.OffHeapMemory;
import dev.sluice.table.PackedLifecycle;
import dev.sluice.table.SlotLifecycle;

/**
 * The lock-free limiter of the one-word algorithms (token bucket, leaky bucket, fixed window, sliding counter).
 *
 * <p>Guarantees: linearizable per key (each admission is one successful CAS of the key's state word; a denial is
 * the volatile read of the state it was decided on); lock-free for an existing key (a failed CAS means another
 * request on that key succeeded; the loser then backs off, see {@link CasBackoff}); no allocation, no lock and no
 * system call on that path. Putting a new key in the table takes its stripe's monitor. Assumes the clock's readings
 * fit its time line (see {@code TimeLine}).
 */
final class PackedStateLimiter extends EngineLimiter {

    private final PackedAlgorithm algorithm;
    private final SlotLifecycle lifecycle;

    PackedStateLimiter(LimiterOptions options) {
        super(options, true);
        this.algorithm = PackedAlgorithm.of(options.config);
        this.lifecycle = new PackedLifecycle(algorithm);
        allocateTable(options.maxKeys, 0);
    }

    @Override
    SlotLifecycle lifecycle() {
        return lifecycle;
    }

    @Override
    int decide(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long t,
            Decision d) {
        int at = table.stateOffset(slot);
        for (;;) {
            // Volatile read: the state we decide on; the keyword check after it tells whether it is still our key's.
            long state = mem.getLongVolatile(at);
            if (state < 0 || !table.owns(mem, slot, keyword, check)) {
                return RETRY;
            }
            long next = algorithm.acquire(state, t, permits);
            if (next == PackedAlgorithm.DENIED) {
                if (d != null) {
                    algorithm.describe(state, next, t, permits, d);
                    d.undoWith(0, NOTHING_TO_UNDO);
                }
                return DENY;
            }
            // Volatile CAS: the admission's linearization point; it fails if any other write reached the slot.
            if (mem.compareAndSetLong(at, state, next)) {
                if (d != null) {
                    algorithm.describe(state, next, t, permits, d);
                    d.undoWith(algorithm.undoToken(state, next), next);
                }
                return ADMIT;
            }
            CasBackoff.afterFailedCas(); // lets the winner keep the line for a few admissions
        }
    }

    @Override
    boolean giveBack(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long t) {
        return update(table, mem, slot, keyword, check, permits, t, 0, 0, false);
    }

    @Override
    boolean takeBack(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long token,
            long after) {
        return update(table, mem, slot, keyword, check, permits, 0, token, after, true);
    }

    /** A release at {@code t}, or the exact undo of an admission ({@code token}, {@code after}); false: look again. */
    private boolean update(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long t,
            long token, long after, boolean exactUndo) {
        int at = table.stateOffset(slot);
        for (;;) {
            // Volatile read, then the keyword check, as in decide.
            long state = mem.getLongVolatile(at);
            if (state < 0 || !table.owns(mem, slot, keyword, check)) {
                return false;
            }
            long next = exactUndo ? algorithm.undo(state, token, after, permits) : algorithm.release(state, t, permits);
            // Volatile CAS: the change applies to exactly the state it was computed on, or is computed again.
            if (next == state || mem.compareAndSetLong(at, state, next)) {
                return true;
            }
            CasBackoff.afterFailedCas();
        }
    }
}
