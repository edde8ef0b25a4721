package dev.sluice.negative;

import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;

/**
 * BROKEN ON PURPOSE (negative control): an enforcing (user, api) limit and a user's additive total asked in the
 * service's order, where a denial by the total returns without undoing the pair's admission. {@code
 * RateLimiterService} undoes it exactly.
 */
final class NoUndoAdditive {

    private final RateLimiter pair;
    private final RateLimiter total;

    NoUndoAdditive(RateLimitConfig pair, RateLimitConfig total) {
        this.pair = RateLimiter.builder(pair).clock(new ManualClock()).maxKeys(16).build();
        this.total = RateLimiter.builder(total).clock(new ManualClock()).maxKeys(16).build();
    }

    boolean allow(String user, String api, long nowNanos) {
        // The defect: a denial by the user's total keeps the permit the pair's limit granted.
        return pair.tryAcquire(user, api, 1, nowNanos, null) && total.tryAcquire(user, 1, nowNanos);
    }

    /** Whether the pair's limit still grants a permit on its own. */
    int pairGrants(String user, String api, long nowNanos) {
        return pair.tryAcquire(user, api, 1, nowNanos, null) ? 1 : 0;
    }

    void close() {
        pair.close();
        total.close();
    }
}
