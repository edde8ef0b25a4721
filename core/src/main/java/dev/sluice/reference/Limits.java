package dev.sluice.reference;

import dev.sluice.RateLimitConfig;

/**
 * One config's numbers, derived once and shared by every key's state.
 *
 * @param limit         L, permits per window
 * @param windowNanos   W
 * @param burst         B, the buckets' capacity in permits (L for the window algorithms)
 * @param intervalNanos T = ceil(W / L), the buckets' emission interval
 * @param capacityNanos tau = B * T, the buckets' capacity in nanoseconds of credit
 */
record Limits(long limit, long windowNanos, long burst, long intervalNanos, long capacityNanos) {

    static Limits of(RateLimitConfig config) {
        long w = config.windowNanos();
        long l = config.limit();
        // Rounded up, so that a bucket never admits faster than L per W.
        long interval = w / l + (w % l == 0 ? 0 : 1);
        return new Limits(l, w, config.burst(), interval, Math.multiplyExact(config.burst(), interval));
    }
}
