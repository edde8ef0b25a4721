package dev.sluice;

/**
 * What a limiter does with a request for a new key when its table has no room for it, after it has tried to take
 * over the slot of an idle key. Every use is counted ({@link RateLimiter#tableFullEvents()}); the hot path never throws.
 */
public enum FullTablePolicy {
    /** Deny the request (fail closed): a flood of new keys cannot buy extra permits. The default. */
    DENY,
    /** Admit the request without tracking the key (fail open): availability over strictness. */
    ALLOW
}
