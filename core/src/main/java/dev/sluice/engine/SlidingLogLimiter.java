package dev.sluice.engine;

import dev.sluice.Decision;
import dev.sluice.algorithm.SlidingWindowLog;
import dev.sluice.table.KeyTable;
import dev.sluice.table.OffHeapMemory;
import dev.sluice.table.SlidingLogLifecycle;
import dev.sluice.table.SlotLifecycle;
import java.lang.invoke.VarHandle;

/**
 * The sliding window log: each key's state word is the header of its ring of timestamps.
 *
 * <p>Guarantees: linearizable per key. A denial reads the header (volatile), the ring, and the header again: if it
 * did not change, the ring it read was the key's. An admission first decides optimistically (on one ring entry,
 * the one it would overwrite, at the caller's time: a yes there is a yes at the key's time too), then claims the key
 * with one CAS of the header (setting its claim bit), decides again on the ring the claim freezes (the
 * linearization point: a header can come back to an earlier value after a full lap of the ring, so the first
 * decision alone could be stale), writes the ring and publishes the new header with a release store. A request that
 * has met another writer on its key skips the optimistic decision and decides under the claim only (a denial then
 * restores the header unchanged). Not lock-free: while a key is claimed (a few plain stores, never a system call or
 * an allocation) its other writers wait, spinning twice and then yielding their core (see {@link #waitForClaim}).
 * Other keys are never affected.
 *
 * <p>The header's 17-bit version wraps: after exactly a multiple of 2^17 writes to a key its header can read the same
 * value again, with other entries in the ring. No CAS is fooled by that. A writer's claim CAS that succeeds on a
 * repeated value claims the header as it is now, and the decision (or the edit) is taken again under the claim, on
 * that header, after checking that the slot is still the key's. A reclaim of an idle key judges idleness again after
 * its CAS, on a ring no writer can claim any more ({@code KeyTable.markDead}; {@code SlidingLogHeaderWrapTest} drives
 * exactly 2^17 admissions between a reclaimer's judgement and its CAS). The one reader that trusts an unchanged header
 * without a CAS is a denial: a thread stalled across exactly a multiple of 2^17 writes between its two header reads
 * can deny on ring entries read partly before them; a denial writes nothing, so the log stays exact, and the cost is at
 * most that one request denied where it could have been admitted.
 */
final class SlidingLogLimiter extends EngineLimiter {

    /** Spins behind a claim before a waiter yields its core (see {@link #waitForClaim}). */
    static final int SPINS_BEFORE_YIELD = 2;

    private final SlidingWindowLog log;
    private final SlotLifecycle lifecycle;

    SlidingLogLimiter(LimiterOptions options) {
        super(options, false);
        this.log = new SlidingWindowLog(options.config);
        this.lifecycle = new SlidingLogLifecycle(log);
        allocateTable(options.maxKeys, (int) options.config.limit());
    }

    @Override
    SlotLifecycle lifecycle() {
        return lifecycle;
    }

    private static int ringBase(KeyTable table, long header) {
        return table.ringWordOffset(SlidingWindowLog.ringOf(header), 0);
    }

    @Override
    int decide(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long t,
            Decision d) {
        int at = table.stateOffset(slot);
        // Waits behind other writers so far. Once one has been met, skip the optimistic decision: its ring reads would
        // race that writer's stores, and the decision under the claim is taken anyway.
        int waits = 0;
        for (;;) {
            // Volatile read: orders the ring reads after it and pairs with the claim holder's release store. Whether the
            // header is our key's is checked once, where the outcome is fixed: under the claim, or with the re-read.
            long header = mem.getLongVolatile(at);
            if (header < 0) {
                return RETRY;
            }
            if (SlidingWindowLog.claimed(header)) {
                waits = waitForClaim(waits);
                continue;
            }
            int base = ringBase(table, header);
            // The optimistic decision reads the one entry the admission would overwrite; the full decision (the newest
            // entry too) is taken here only when that one says no.
            if (waits == 0 && !log.admitsAt(header, mem, base, t, permits)
                    && log.acquire(header, mem, base, t, permits) == SlidingWindowLog.DENIED) {
                if (d != null) {
                    log.describe(header, false, mem, base, t, permits, d);
                    d.undoWith(0, NOTHING_TO_UNDO);
                }
                // Acquire fence, then the volatile re-read: the fence keeps the plain ring reads above before the
                // re-read (a volatile load alone lets earlier plain loads move after it), so an unchanged header means
                // no writer's claim came before any of them and the ring we read was the key's, as in a seqlock.
                VarHandle.acquireFence();
                if (mem.getLongVolatile(at) == header) {
                    return table.owns(mem, slot, keyword, check) ? DENY : RETRY;
                }
                continue;
            }
            // Volatile CAS: claims the key. The decision above, if taken, was optimistic (the ring may have gone a
            // full lap back to this header value meanwhile), so it is taken again below on the ring the claim freezes.
            if (!mem.compareAndSetLong(at, header, header | SlidingWindowLog.CLAIM)) {
                waits = waitForClaim(waits);
                continue;
            }
            return decideClaimed(table, mem, slot, at, keyword, check, header, base, permits, t, d);
        }
    }

    /**
     * The decision under the key's claim, taken on {@code header}; releases the claim. Apart from {@link #decide} so
     * that the JIT inlines both (a method of more than 325 bytecodes is not inlined into its caller).
     */
    private int decideClaimed(KeyTable table, OffHeapMemory mem, int slot, int at, long keyword, long check,
            long header, int base, long permits, long t, Decision d) {
        if (!table.owns(mem, slot, keyword, check)) {
            // The slot has passed to another key: undo the claim, look again.
            mem.putLongRelease(at, header);
            return RETRY;
        }
        long next = log.admit(header, mem, base, t, permits);
        if (next == SlidingWindowLog.DENIED) {
            if (d != null) {
                log.describe(header, false, mem, base, t, permits, d);
                d.undoWith(0, NOTHING_TO_UNDO);
            }
            mem.putLongRelease(at, header);
            return DENY;
        }
        if (d != null) {
            log.describe(next, true, mem, base, t, permits, d);
            d.undoWith(log.newest(next, mem, base), next);
        }
        // Release: publishes the ring entries written under the claim together with the new header.
        mem.putLongRelease(at, next);
        return ADMIT;
    }

    @Override
    boolean giveBack(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long t) {
        return editUnderClaim(table, mem, slot, keyword, check, permits, t, false);
    }

    @Override
    boolean takeBack(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long stamp,
            long after) {
        return editUnderClaim(table, mem, slot, keyword, check, permits, stamp, true);
    }

    /**
     * Under the key's claim, a release at {@code time}, or the exact undo of the admission stamped {@code time};
     * false: the slot changed hands, find the key again.
     */
    private boolean editUnderClaim(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits,
            long time, boolean exactUndo) {
        int at = table.stateOffset(slot);
        int waits = 0;
        for (;;) {
            // Volatile read, then the claim CAS: the edit reads and writes the ring under the claim.
            long header = mem.getLongVolatile(at);
            if (header < 0 || !table.owns(mem, slot, keyword, check)) {
                return false;
            }
            if (SlidingWindowLog.claimed(header)
                    || !mem.compareAndSetLong(at, header, header | SlidingWindowLog.CLAIM)) {
                waits = waitForClaim(waits);
                continue;
            }
            if (!table.owns(mem, slot, keyword, check)) {
                mem.putLongRelease(at, header);
                return false;
            }
            int base = ringBase(table, header);
            long next = exactUndo ? log.undo(header, mem, base, time, permits)
                    : log.release(header, mem, base, time, permits);
            // Release: publishes the ring's new content with the unclaimed header.
            mem.putLongRelease(at, next);
            return true;
        }
    }

    /**
     * One wait behind another writer's claim. A claim lasts a few stores, so the first {@value #SPINS_BEFORE_YIELD}
     * waits spin once each; a waiter that meets a claim again is most likely behind a holder that lost its core (more
     * threads than cores) or in a queue of writers, and gives its own core away ({@code Thread.yield}, a system call
     * on the contended path only) so that the holder can run and the key's cache line stops bouncing. Returns the
     * waits so far. Measured ({@code HotKeyBenchmark}, admitted, 2 to 8 threads on 2 cores): yielding after 0 to 2 spins
     * gives about 21M admissions/s, after 4 about 15-19M/s, after 8 to 128 about 14M/s, spinning only 6-10M/s.
     */
    private static int waitForClaim(int waits) {
        if (waits >= SPINS_BEFORE_YIELD) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        return waits + 1;
    }
}
