package dev.sluice;

import dev.sluice.engine.LimiterOptions;
import dev.sluice.engine.Limiters;
import java.util.Objects;

/**
 * Options of a lock-free limiter. Defaults: {@link Clock#system()}, room for {@value #DEFAULT_MAX_KEYS} keys
 * (the sliding log: as many as fit in {@value #DEFAULT_LOG_BUDGET_BYTES} bytes of rings, at least 1024),
 * {@link FullTablePolicy#DENY}, {@link MemoryBackend#AUTO}.
 */
public final class RateLimiterBuilder {

    /** Default capacity: keys the table holds before it must reclaim idle keys or apply the full-table policy. */
    public static final int DEFAULT_MAX_KEYS = 1 << 20;
    /** Memory the sliding log's default capacity may use for its rings. */
    public static final long DEFAULT_LOG_BUDGET_BYTES = 256L << 20;
    /** Largest capacity of one limiter. */
    public static final int MAX_KEYS = 1 << 30;

    private final RateLimitConfig config;
    private Clock clock = Clock.system();
    private int maxKeys = -1;
    private FullTablePolicy fullTablePolicy = FullTablePolicy.DENY;
    private MemoryBackend memory = MemoryBackend.AUTO;

    RateLimiterBuilder(RateLimitConfig config) {
        this.config = Objects.requireNonNull(config, "config must not be null");
    }

    public RateLimiterBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
        return this;
    }

    /** How many keys the table holds at once: 1 to {@value #MAX_KEYS}. Memory is allocated for all of them up front. */
    public RateLimiterBuilder maxKeys(int maxKeys) {
        if (maxKeys < 1 || maxKeys > MAX_KEYS) {
            throw new IllegalArgumentException("maxKeys must be in [1, " + MAX_KEYS + "], was " + maxKeys);
        }
        this.maxKeys = maxKeys;
        return this;
    }

    public RateLimiterBuilder fullTablePolicy(FullTablePolicy policy) {
        this.fullTablePolicy = Objects.requireNonNull(policy, "fullTablePolicy must not be null");
        return this;
    }

    public RateLimiterBuilder memory(MemoryBackend memory) {
        this.memory = Objects.requireNonNull(memory, "memory must not be null");
        return this;
    }

    /** The capacity this builder will use. */
    public int effectiveMaxKeys() {
        if (maxKeys > 0) {
            return maxKeys;
        }
        if (config.algorithm() == Algorithm.SLIDING_WINDOW_LOG) {
            long fit = DEFAULT_LOG_BUDGET_BYTES / (8 * config.limit());
            return (int) Math.max(1024, Math.min(DEFAULT_MAX_KEYS, fit));
        }
        return DEFAULT_MAX_KEYS;
    }

    /**
     * The off-heap bytes the limiter this builder makes holds for its keys (one table of string keys, or of long
     * keys, which is smaller; a limiter asked with both kinds of key holds one table of each), computed without
     * allocating anything.
     *
     * @throws IllegalArgumentException if the table would not fit (one stripe above 1 GiB)
     */
    public long offHeapBytes() {
        return Limiters.offHeapBytes(options());
    }

    private LimiterOptions options() {
        return new LimiterOptions(config, clock, effectiveMaxKeys(), fullTablePolicy, memory);
    }

    public RateLimiter build() {
        return Limiters.create(options());
    }
}
