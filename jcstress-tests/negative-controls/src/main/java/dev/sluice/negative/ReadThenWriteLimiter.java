package dev.sluice.negative;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.algorithm.PackedAlgorithm;
import dev.sluice.support.OneKey;
import dev.sluice.table.KeyTable;
import dev.sluice.table.MemoryFactory;
import dev.sluice.table.PackedLifecycle;
import java.time.Duration;

/**
 * BROKEN ON PURPOSE (negative control): one key of a packed algorithm in a real {@link KeyTable}, updated by a plain
 * read of the state and a release store of the next one instead of the engine's CAS. Two requests that read the
 * same state both admit and one update overwrites the other.
 */
final class ReadThenWriteLimiter {

    private static final long KEYWORD = 1L << 32;

    private final PackedAlgorithm algorithm;
    private final KeyTable table;
    private final long handle;
    private final long limit;

    ReadThenWriteLimiter(Algorithm algorithm, long limit, long left, long setupNanos) {
        this.limit = limit;
        this.algorithm = PackedAlgorithm.of(RateLimitConfig.of(algorithm, limit, Duration.ofNanos(OneKey.WINDOW)));
        this.table = new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), false, 1, 0,
                new PackedLifecycle(this.algorithm), 0);
        this.handle = table.findOrPut(KEYWORD, 0, setupNanos);
        for (long i = 0; i < limit - left; i++) {
            if (take(1, setupNanos) == 0) {
                throw new IllegalStateException("setup denied");
            }
        }
    }

    /** The permits admitted (all or none). */
    int take(long permits, long t) {
        long state = table.state(handle);
        long next = algorithm.acquire(state, t, permits);
        if (next == PackedAlgorithm.DENIED) {
            return 0;
        }
        // The defect: a store where the engine has a CAS, so a concurrent admission in between is overwritten.
        table.putStateRelease(handle, next);
        return (int) permits;
    }

    /** Single permits still available at {@code t}; then frees the table. */
    int drainAndFree(long t) {
        int n = 0;
        while (n <= limit && take(1, t) == 1) {
            n++;
        }
        table.free();
        return n;
    }
}
