package dev.sluice.support;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.algorithm.PackedAlgorithm;
import dev.sluice.table.KeyTable;
import dev.sluice.table.MemoryFactory;
import dev.sluice.table.PackedLifecycle;
import java.time.Duration;

/**
 * A {@link KeyTable} driven through its public API, holding fixed-window counters (limit 8 per {@link OneKey#WINDOW}),
 * with the engine's update protocol: read the state (volatile), check it is not dead (negative: {@link KeyTable#DEAD}
 * marks it) and that the slot still {@link KeyTable#owns} the key, then CAS. Keywords are chosen by the tests, so probe
 * chains are certain: a keyword whose low 32 bits are 0 has home slot 0, and a table of capacity 1 or 2 has four slots
 * in one stripe and takes at most three live keys.
 */
public final class TableHarness {

    public static final int ADMITTED = 1;
    public static final int DENIED = 0;
    public static final int FULL = -2;
    /** {@link #count} of a key the table does not hold. */
    public static final int ABSENT = -1;

    /** Distinct keywords that all have home slot 0 (low 32 bits 0), in stripe 0 (top 16 bits 0). */
    public static final long K1 = 1L << 32;
    public static final long K2 = 2L << 32;
    public static final long K3 = 3L << 32;
    /** Keywords with home slots 0, 2 and 3 of a 4-slot stripe (the smallest table: capacity 1 or 2). */
    public static final long HOME0 = 4L << 32;
    public static final long HOME2 = (7L << 32) | 0x8000_0000L;
    public static final long IDLE2 = (5L << 32) | 0x8000_0000L;
    public static final long HOME3 = (6L << 32) | 0xC000_0000L;

    public final PackedAlgorithm algorithm =
            PackedAlgorithm.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 8, Duration.ofNanos(OneKey.WINDOW)));
    public final KeyTable table;

    public TableHarness(boolean stringKeys, int capacity) {
        this.table = new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), stringKeys, capacity, 0,
                new PackedLifecycle(algorithm), 0);
    }

    /** One permit for the key at {@code t}: {@link #ADMITTED}, {@link #DENIED} or {@link #FULL}. */
    public int take(long keyword, long check, long t) {
        for (;;) {
            long handle = table.findOrPut(keyword, check, t);
            if (handle == KeyTable.FULL) {
                return FULL;
            }
            for (;;) {
                long state = table.state(handle);
                // Negative = dead (DEAD is the sign bit over the old bits), exactly as the engine tests it.
                if (state < 0 || !table.owns(handle, keyword, check)) {
                    break; // the slot changed hands: find the key again
                }
                long next = algorithm.acquire(state, t, 1);
                if (next == PackedAlgorithm.DENIED) {
                    return DENIED;
                }
                if (table.casState(handle, state, next)) {
                    return ADMITTED;
                }
            }
            Thread.onSpinWait();
        }
    }

    /** The key's slot handle, or {@link KeyTable#ABSENT}. */
    public long find(long keyword, long check) {
        return table.find(keyword, check);
    }

    /** Permits the key holds in the window of {@code t}, or {@link #ABSENT}. Called by the arbiter only. */
    public int count(long keyword, long check, long t) {
        long handle = table.find(keyword, check);
        if (handle == KeyTable.ABSENT) {
            return ABSENT;
        }
        Decision d = new Decision();
        algorithm.describe(table.state(handle), PackedAlgorithm.DENIED, t, 1, d);
        return (int) (d.limit() - d.remaining());
    }

    public void free() {
        table.free();
    }
}
