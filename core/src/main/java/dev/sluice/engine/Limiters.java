package dev.sluice.engine;

import dev.sluice.Algorithm;
import dev.sluice.RateLimiter;

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
}
