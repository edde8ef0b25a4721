package dev.sluice.negative;

import dev.sluice.ManualClock;
import dev.sluice.RateLimiter;
import dev.sluice.support.RuleChange;

/**
 * BROKEN ON PURPOSE (negative control): the rule change of {@link RuleChange} published as two volatile writes, the
 * (user, api) rule first, then the api rule, instead of one immutable snapshot. A request between the two writes
 * sees neither rule and falls through to the default. Same resolution order as the service: (user, api), api,
 * default; one limiter per limit, shared by both rule sets.
 */
final class TwoStepRules {

    private final RateLimiter spent =
            RateLimiter.builder(RuleChange.SPENT).clock(new ManualClock()).maxKeys(16).build();
    private final RateLimiter open =
            RateLimiter.builder(RuleChange.OPEN).clock(new ManualClock()).maxKeys(16).build();
    /** The (user, api) rule of ("u", "a"), or null. */
    private volatile RateLimiter pairRule = spent;
    /** The api rule of "a", or null. */
    private volatile RateLimiter apiRule;

    void change() {
        // The defect: two publications, with a window in between where neither rule is visible.
        pairRule = null;
        apiRule = spent;
    }

    boolean allow(String user, String api, long nowNanos) {
        RateLimiter pair = RuleChange.USER.equals(user) && RuleChange.API.equals(api) ? pairRule : null;
        RateLimiter byApi = RuleChange.API.equals(api) ? apiRule : null;
        RateLimiter rule = pair != null ? pair : byApi != null ? byApi : open;
        return rule.tryAcquire(user, api, 1, nowNanos, null);
    }

    void close() {
        spent.close();
        open.close();
    }
}
