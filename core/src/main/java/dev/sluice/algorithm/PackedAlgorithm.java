package dev.sluice.algorithm;

import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;

/**
 * An algorithm whose whole per-key state is one non-negative {@code long}, as pure functions of
 * {@code (state, t, permits)}. No concurrency here: the table's CAS loop applies {@link #acquire}.
 *
 * <p>Time {@code t} is the limiter's elapsed time in nanoseconds, in {@code [0, RateLimitConfig.HORIZON_NANOS]}.
 * Every state a key can reach from {@link #freshState(long)} is at least that fresh state, and a fresh state at
 * {@code t} is greater than every state that {@link #isIdle} holds for at {@code t} (see {@code SlotLifecycle}).
 */
public interface PackedAlgorithm {

    /** Returned by {@link #acquire} when the request is denied. Never a valid state. */
    long DENIED = -1L;

    /** The state after admitting {@code permits} at {@code t}, or {@link #DENIED}. {@code permits >= 1}. */
    long acquire(long state, long t, long permits);

    /**
     * The state after giving back {@code permits} admitted at or before {@code t}; never richer than fresh. A credit:
     * it may give back permits of a later window or refill than the one that took them (see {@link #undo}).
     */
    long release(long state, long t, long permits);

    /**
     * What an exact {@link #undo} of the admission {@code state -> next} needs besides {@code next}: the fixed window's
     * and the sliding counter's window index, the buckets' state before the admission.
     */
    long undoToken(long state, long next);

    /**
     * The state after undoing exactly the admission of {@code permits} that recorded {@code token} and left
     * {@code after} ({@link #undoToken}); {@code state} itself when nothing of it can be given back. Never gives back
     * a window, a refill or a count that admission did not take. Needs no time: what it gives back is fixed by the
     * token and the state.
     */
    long undo(long state, long token, long after, long permits);

    /** Whether the state carries no information at {@code t} (equivalent to a fresh one). */
    boolean isIdle(long state, long t);

    /** The state of a key first seen at {@code t}. */
    long freshState(long t);

    /** The state of a key first seen at {@code t} in a slot whose previous key's last state was {@code previous}. */
    default long freshState(long t, long previous) {
        return freshState(t);
    }

    /**
     * Fills {@code decision} for a request of {@code permits} at {@code t} that saw {@code state} and produced
     * {@code next} ({@link #DENIED} if denied).
     */
    void describe(long state, long next, long t, long permits, Decision decision);

    /** The packed algorithm for {@code config}; the sliding log is not one. */
    static PackedAlgorithm of(RateLimitConfig config) {
        switch (config.algorithm()) {
            case TOKEN_BUCKET:
                return new TokenBucket(config, false);
            case LEAKY_BUCKET:
                return new TokenBucket(config, true);
            case FIXED_WINDOW:
                return new FixedWindow(config);
            case SLIDING_WINDOW_COUNTER:
                return new SlidingWindowCounter(config);
            default:
                throw new IllegalArgumentException(config.algorithm() + " does not keep its state in one long");
        }
    }
}
