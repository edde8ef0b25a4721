package dev.sluice.table;

import dev.sluice.algorithm.PackedAlgorithm;

/**
 * The slot lifecycle of the one-word algorithms: a slot's state is the packed word itself, idle and fresh as the
 * algorithm says, with no ring.
 */
public final class PackedLifecycle implements SlotLifecycle {

    private final PackedAlgorithm algorithm;

    public PackedLifecycle(PackedAlgorithm algorithm) {
        this.algorithm = algorithm;
    }

    @Override
    public boolean isIdle(KeyTable table, long handle, long state, long t) {
        return algorithm.isIdle(state, t);
    }

    @Override
    public long freshState(long ring, long t, long previous) {
        return algorithm.freshState(t, previous);
    }

    @Override
    public long ringOf(long state) {
        return -1;
    }
}
