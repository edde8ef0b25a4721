package dev.sluice.table;

import dev.sluice.algorithm.SlidingWindowLog;

/**
 * The slot lifecycle of a sliding window log: a slot's state is its log's header, naming the ring its timestamps
 * live in. A key is idle when no writer claims its header and every timestamp in its ring has left the window; a
 * fresh key starts with an empty header on the ring the slot keeps. Stateless past the algorithm it reads.
 */
public final class SlidingLogLifecycle implements SlotLifecycle {

    private final SlidingWindowLog log;

    public SlidingLogLifecycle(SlidingWindowLog log) {
        this.log = log;
    }

    @Override
    public boolean isIdle(KeyTable table, long handle, long header, long t) {
        return !SlidingWindowLog.claimed(header)
                && log.isIdle(header, table.memoryOf(handle), table.ringWordOffset(ringOf(header), 0), t);
    }

    @Override
    public long freshState(long ring, long t, long previous) {
        return SlidingWindowLog.freshHeader(ring);
    }

    @Override
    public long ringOf(long header) {
        return SlidingWindowLog.ringOf(header);
    }

    @Override
    public long maxRingsPerStripe() {
        return SlidingWindowLog.MAX_RINGS;
    }
}
