package dev.sluice.redis;

/**
 * What a {@link RedisRateLimiter} decides when Redis does not answer within the limiter's timeout (down, slow,
 * disconnected, or an error reply). Each such decision is counted in {@link RedisRateLimiter#failures()}.
 */
public enum FailurePolicy {
    /** Admit: availability over accuracy, the limit is not enforced while Redis is unreachable. */
    FAIL_OPEN,
    /** Deny: protection over availability, nothing passes while Redis is unreachable. */
    FAIL_CLOSED
}
