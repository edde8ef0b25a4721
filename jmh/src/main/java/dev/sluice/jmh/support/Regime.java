package dev.sluice.jmh.support;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import java.time.Duration;

/** The two hot-key regimes: the cost of a yes and the cost of a no. */
public enum Regime {
    /**
     * A limit far above what one key can be asked here, so nearly every request is admitted. The packed state caps
     * some algorithms' rates: the sliding log holds at most 65,536 stamps (so 65,536 per 1 ms), the sliding window
     * counter's largest limit is {@link RateLimitConfig#maxLimit} for 1 ms (about 4M/s), so at full speed its
     * windows fill and part of its requests are denied.
     */
    ADMIT,
    /** One permit per hour: after the first request every request is denied. */
    DENY;

    public RateLimitConfig config(Algorithm algorithm) {
        if (this == DENY) {
            return RateLimitConfig.of(algorithm, 1, Duration.ofHours(1));
        }
        switch (algorithm) {
            case TOKEN_BUCKET:
            case LEAKY_BUCKET:
                return RateLimitConfig.of(algorithm, 1_000_000_000L, Duration.ofSeconds(1));
            case FIXED_WINDOW:
                return RateLimitConfig.of(algorithm, RateLimitConfig.maxLimit(algorithm, Duration.ofSeconds(1)),
                        Duration.ofSeconds(1));
            case SLIDING_WINDOW_LOG:
                return RateLimitConfig.of(algorithm, RateLimitConfig.MAX_LOG_LIMIT, Duration.ofMillis(1));
            case SLIDING_WINDOW_COUNTER:
                return RateLimitConfig.of(algorithm, RateLimitConfig.maxLimit(algorithm, Duration.ofMillis(1)),
                        Duration.ofMillis(1));
            default:
                throw new AssertionError(algorithm);
        }
    }
}
