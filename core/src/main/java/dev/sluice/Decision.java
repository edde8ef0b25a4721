package dev.sluice;

/**
 * The full answer to one request, filled in by a limiter: a caller-owned, reusable, mutable holder, so that asking
 * for it allocates nothing. Not thread-safe: one {@code Decision} per thread (or per request).
 *
 * <p>All durations are in nanoseconds on the limiter's clock, exact for the state the request saw:
 * <ul>
 *   <li>{@link #remaining()}: permits the key could still take right after this request (0 when denied at the limit);
 *   always between 0 and {@link #limit()}.</li>
 *   <li>{@link #retryAfterNanos()}: for a denied request, the time after which the same request could succeed if
 *       nothing else happens meanwhile; 0 when admitted; {@link Long#MAX_VALUE} when it never can
 *       (more permits than the limit or burst).</li>
 *   <li>{@link #resetAfterNanos()}: the time until the key is back to a fresh state (full bucket, empty window).</li>
 *   <li>{@link #delayNanos()}: LEAKY_BUCKET only, for an admitted request: how long it must wait before it proceeds,
 *       so that the output is smooth; 0 for every other algorithm.</li>
 * </ul>
 */
public final class Decision {

    /** {@link #retryAfterNanos()} of a request that can never be admitted. */
    public static final long NEVER = Long.MAX_VALUE;

    private boolean allowed;
    private long limit;
    private long remaining;
    private long retryAfterNanos;
    private long resetAfterNanos;
    private long delayNanos;
    private long permits;
    private long nowNanos;
    private long undoToken;
    private long undoState;
    private String policyName;
    private RateLimitConfig config;
    /** Every limit that applied to the request, in the order they were tried; grown, never shrunk. */
    private Policy[] applied;
    private int appliedCount;

    public boolean allowed() {
        return allowed;
    }

    /** The limit (or burst) of the limit that decided. */
    public long limit() {
        return limit;
    }

    public long remaining() {
        return remaining;
    }

    public long retryAfterNanos() {
        return retryAfterNanos;
    }

    public long resetAfterNanos() {
        return resetAfterNanos;
    }

    public long delayNanos() {
        return delayNanos;
    }

    /** The permits the request asked for (set by the limiter with {@link #request}); 0 if not recorded. */
    public long permits() {
        return permits;
    }

    /** The time the request was decided at, on the limiter's clock (set with {@link #request}). */
    public long nowNanos() {
        return nowNanos;
    }

    /** Limiter-internal: what an {@code undo} of this admission needs (meaning depends on the algorithm). */
    public long undoToken() {
        return undoToken;
    }

    /** Limiter-internal: the key's state right after this admission, for an exact {@code undo}. */
    public long undoState() {
        return undoState;
    }

    /** The name of the rule or limit that decided (a name the rule was given, or one derived from its scope), or null. */
    public String policyName() {
        return policyName;
    }

    /** The limit that decided, or null when the limiter did not record it. */
    public RateLimitConfig config() {
        return config;
    }

    /**
     * How many limits applied to the request (filled by {@link RateLimiterService}: the enforcing rule's limits and
     * every additive rule's, shadow rules left out); 0 when the decision came from a limiter alone.
     */
    public int appliedCount() {
        return appliedCount;
    }

    /** The {@code i}-th limit that applied, {@code 0 <= i < appliedCount()}. */
    public Policy applied(int i) {
        if (i < 0 || i >= appliedCount) {
            throw new IndexOutOfBoundsException("applied index " + i + " out of [0, " + appliedCount + ")");
        }
        return applied[i];
    }

    /** Forgets the limits that applied; used by the service before it records them. */
    public Decision clearApplied() {
        appliedCount = 0;
        return this;
    }

    /**
     * Records one more limit that applied; used by the service. Allocates only when this decision holds more
     * limits than ever before (a decision reused per thread stops allocating after its first requests).
     */
    public Decision addApplied(Policy policy) {
        if (applied == null || appliedCount == applied.length) {
            Policy[] grown = new Policy[Math.max(8, appliedCount * 2)];
            if (applied != null) {
                System.arraycopy(applied, 0, grown, 0, appliedCount);
            }
            applied = grown;
        }
        applied[appliedCount++] = policy;
        return this;
    }

    /** Records the request this decision answers; used by limiter implementations. */
    public Decision request(long permits, long nowNanos) {
        this.permits = permits;
        this.nowNanos = nowNanos;
        return this;
    }

    /** Records what an exact undo of this admission needs; used by limiter implementations. */
    public Decision undoWith(long token, long state) {
        this.undoToken = token;
        this.undoState = state;
        return this;
    }

    /** Records which limit decided and under what name; used by limiters and the service. */
    public Decision decidedBy(String policyName, RateLimitConfig config) {
        this.policyName = policyName;
        this.config = config;
        return this;
    }

    /** Fills in every field at once; used by limiter implementations. */
    public Decision set(boolean allowed, long limit, long remaining, long retryAfterNanos, long resetAfterNanos,
            long delayNanos) {
        this.allowed = allowed;
        this.limit = limit;
        // Clamped once here, for every limiter and backend: a header must never say r=-500 or more than the limit.
        this.remaining = Math.max(0, limit > 0 ? Math.min(limit, remaining) : remaining);
        this.retryAfterNanos = retryAfterNanos;
        this.resetAfterNanos = resetAfterNanos;
        this.delayNanos = delayNanos;
        return this;
    }

    /** Copies another decision into this one. */
    public Decision copyFrom(Decision other) {
        set(other.allowed, other.limit, other.remaining, other.retryAfterNanos, other.resetAfterNanos,
                other.delayNanos);
        this.permits = other.permits;
        this.nowNanos = other.nowNanos;
        this.undoToken = other.undoToken;
        this.undoState = other.undoState;
        this.policyName = other.policyName;
        this.config = other.config;
        clearApplied();
        for (int i = 0; i < other.appliedCount; i++) {
            addApplied(other.applied[i]);
        }
        return this;
    }

    @Override
    public String toString() {
        return (allowed ? "allowed" : "denied") + "[limit=" + limit + ", remaining=" + remaining + ", retryAfter="
                + retryAfterNanos + "ns, resetAfter=" + resetAfterNanos + "ns, delay=" + delayNanos + "ns]";
    }
}
