package dev.sluice.engine;

import dev.sluice.Algorithm;
import dev.sluice.RateLimiter;
import dev.sluice.algorithm.SlidingWindowLog;
import dev.sluice.table.KeyTable;

/** Picks the engine limiter for a config. */
public final class Limiters {

    private Limiters() {
    }

    public static RateLimiter create(LimiterOptions options) {
        if (options.config.algorithm() == Algorithm.SLIDING_WINDOW_LOG) {
            return new SlidingLogLimiter(options);
        }
        return new PackedStateLimiter(options);
    }

    /**
     * The off-heap bytes of one key table of a limiter built from {@code options} (its string-key table, the larger
     * of the two kinds; a limiter asked with both long and string keys holds one table of each), computed without
     * allocating.
     */
    public static long offHeapBytes(LimiterOptions options) {
        boolean log = options.config.algorithm() == Algorithm.SLIDING_WINDOW_LOG;
        return KeyTable.offHeapBytes(true, options.maxKeys, log ? (int) options.config.limit() : 0,
                log ? SlidingWindowLog.MAX_RINGS : Long.MAX_VALUE);
    }
}
