package dev.sluice.jmh;

import dev.sluice.algorithm.SlidingWindowLog;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Left padding: a class of its own, because the JVM may reorder the fields of one class. */
abstract class PaddedCellLeft {
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}

/** The value, between two 128-byte pads, so no other hot field shares its cache line. */
abstract class PaddedCellValue extends PaddedCellLeft {
    volatile long value;
}

/** A padded long cell with one CAS transition: the floor of a hot-key decision. */
final class PaddedCell extends PaddedCellValue {

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCellValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The spin-wait hints the engine waits after a lost CAS ({@code dev.sluice.engine.CasBackoff.PAUSES}). */
    static final int ENGINE_BACKOFF_HINTS = 512;

    long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;

    /** One read and one CAS moving the value to at least {@code now}: what a limiter's transition does at least. */
    boolean advance(long now) {
        // Volatile read then CAS: the orderings of the engine's CAS loop.
        long old = value;
        return VALUE.compareAndSet(this, old, Math.max(old, now) + 1);
    }

    /**
     * An admission that retries until its CAS succeeds, backing off as Sluice's CAS loop does after a lost CAS and
     * keeping its time: what a contended admission costs with the engine's backoff and no decision.
     */
    boolean advanceWithBackoff(long now) {
        for (;;) {
            long old = value; // volatile read, then CAS: the engine's orderings
            if (VALUE.compareAndSet(this, old, Math.max(old, now) + 1)) {
                return true;
            }
            for (int i = 0; i < ENGINE_BACKOFF_HINTS; i++) {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * The sliding log's write protocol alone, on a ring of a power-of-two length: claim the cell (a header) with a
     * CAS, write the entry the header points at, publish the next header with a release store.
     */
    boolean claimWritePublish(long[] ring, long now) {
        long old = value; // volatile read, as the log reads its header
        if (!VALUE.compareAndSet(this, old, old | SlidingWindowLog.CLAIM)) {
            return false;
        }
        ring[(int) old & (ring.length - 1)] = now; // plain: the release store below publishes it
        VALUE.setRelease(this, (old + 1) & ~SlidingWindowLog.CLAIM);
        return true;
    }
}
