package dev.sluice.negative;

import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;

/**
 * BROKEN ON PURPOSE (negative control): a composite rule that asks its limits in order and, when a later one denies,
 * returns the denial without giving back what the earlier ones granted. {@code RateLimiterService} releases them.
 */
final class NoRollbackComposite {

    private final RateLimiter first;
    private final RateLimiter second;

    NoRollbackComposite(RateLimitConfig first, RateLimitConfig second) {
        this.first = RateLimiter.builder(first).clock(new ManualClock()).maxKeys(16).build();
        this.second = RateLimiter.builder(second).clock(new ManualClock()).maxKeys(16).build();
    }

    boolean allow(String user, String api, long nowNanos) {
        // The defect: a denial by the second limit keeps the permit the first one granted.
        return first.tryAcquire(user, api, 1, nowNanos, null) && second.tryAcquire(user, api, 1, nowNanos, null);
    }

    /** What the first limit still grants on its own, asked twice. */
    int firstGrants(String user, String api, long nowNanos) {
        return (first.tryAcquire(user, api, 1, nowNanos, null) ? 1 : 0)
                + (first.tryAcquire(user, api, 1, nowNanos, null) ? 1 : 0);
    }

    void close() {
        first.close();
        second.close();
    }
}
