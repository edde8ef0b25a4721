package dev.sluice.engine;

import dev.sluice.Clock;
import dev.sluice.FullTablePolicy;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;

/** Everything a lock-free limiter is built from; checked by {@code RateLimiterBuilder}. */
public final class LimiterOptions {

    final RateLimitConfig config;
    final Clock clock;
    final int maxKeys;
    final FullTablePolicy fullTablePolicy;
    final MemoryBackend memory;

    public LimiterOptions(RateLimitConfig config, Clock clock, int maxKeys, FullTablePolicy fullTablePolicy,
            MemoryBackend memory) {
        this.config = config;
        this.clock = clock;
        this.maxKeys = maxKeys;
        this.fullTablePolicy = fullTablePolicy;
        this.memory = memory;
    }
}
