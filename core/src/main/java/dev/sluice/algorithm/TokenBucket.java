package dev.sluice.algorithm;

import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;

/**
 * Token bucket and leaky bucket as GCRA: the state is the theoretical arrival time (TAT).
 *
 * <pre>
 * state: [ 0 | TAT, ns of limiter time (63 bits) ]     TAT <= t + tau, so below 2^61
 * T   = ceil(window / limit)     emission interval: refill never faster than the ideal bucket
 * tau = burst * T                tolerance: the bucket's capacity, in time
 * admit n  iff  max(TAT, t) + n*T - t <= tau ;  then TAT' = max(TAT, t) + n*T
 * </pre>
 * This is exactly a bucket of {@code burst} tokens refilled by one token every {@code T} ns. The leaky bucket is the
 * same queue seen from the other side: an admitted request must wait {@code max(TAT, t) - t} before it proceeds,
 * which spaces the output by {@code T}. Ranges: {@code T <= 366 days}, {@code tau < 2^60} (checked by the config),
 * {@code t <= 2^58}: no sum here can overflow.
 */
public final class TokenBucket implements PackedAlgorithm {

    private final long emission;
    private final long tolerance;
    private final long burst;
    private final boolean leaky;

    TokenBucket(RateLimitConfig config, boolean leaky) {
        this.emission = RateLimitConfig.emissionIntervalNanos(config.limit(), config.windowNanos());
        this.burst = config.burst();
        this.tolerance = burst * emission;
        this.leaky = leaky;
    }

    @Override
    public long acquire(long tat, long t, long permits) {
        if (permits > burst) {
            return DENIED;
        }
        long next = Math.max(tat, t) + permits * emission;
        return next - t <= tolerance ? next : DENIED;
    }

    @Override
    public long release(long tat, long t, long permits) {
        long back = Math.min(permits, burst) * emission;
        return Math.max(tat - back, Math.min(tat, t));
    }

    @Override
    public boolean isIdle(long tat, long t) {
        return tat < t;
    }

    @Override
    public long freshState(long t) {
        return t;
    }

    @Override
    public void describe(long tat, long next, long t, long permits, Decision d) {
        if (next != DENIED) {
            long remaining = (tolerance - (next - t)) / emission;
            long delay = leaky ? next - permits * emission - t : 0;
            d.set(true, burst, remaining, 0, next - t, delay);
        } else {
            long base = Math.max(tat, t);
            long remaining = (tolerance - (base - t)) / emission;
            long retry = permits > burst ? Decision.NEVER : base + permits * emission - tolerance - t;
            d.set(false, burst, remaining, retry, base - t, 0);
        }
    }
}
