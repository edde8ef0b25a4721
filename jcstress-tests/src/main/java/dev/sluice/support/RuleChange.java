package dev.sluice.support;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import java.time.Duration;

/**
 * The rule change of claim 5, built so that a request decided by a mix of the two rule sets is visible. Both the
 * old and the new rules deny (user, api) = ("u", "a"): the old by its (user, api) rule {@link #SPENT}, the new by its
 * api rule with the same limit, hence the same limiter and the same spent state. A request that sees the (user, api)
 * rule already gone but the api rule not yet there falls through to the default {@link #OPEN} and is admitted.
 */
public final class RuleChange {

    public static final String USER = "u";
    public static final String API = "a";
    /** 1 per second, spent for ("u", "a") before the actors start. */
    public static final RateLimitConfig SPENT =
            RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofNanos(OneKey.WINDOW));
    /** The default: 100 per second, never spent here. */
    public static final RateLimitConfig OPEN =
            RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofNanos(OneKey.WINDOW));

    private RuleChange() {
    }
}
