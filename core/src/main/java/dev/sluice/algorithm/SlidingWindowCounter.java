package dev.sluice.algorithm;

import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;

/**
 * Sliding window counter: the previous fixed window's count, weighted by how much of it still overlaps the sliding
 * window, plus the current count.
 *
 * <pre>
 * state: [ 0 | window index (63 - 2c bits) | previous count (c bits) | current count (c bits) ]   c = bits(limit)
 * admit n  iff  prev * (W - e) / W + curr + n <= limit     e = time since the current window began
 *          i.e. prev * (W - e) <= (limit - curr - n) * W   compared exactly in 128 bits
 * </pre>
 * The previous count is meaningful only when its window directly precedes the stored one; older windows count 0.
 *
 * <p>Undo: an admission records the index of the window it was counted in. An undo takes its permits off that
 * window's count: the current count while the stored window is still that one, the previous count once the key has
 * moved to the next window, nothing once the window is older (it weighs 0). Both counts stay sums of admissions not
 * undone, so every estimate is the one the key would make had that admission never happened.
 */
public final class SlidingWindowCounter implements PackedAlgorithm {

    private final WindowClock windows;
    private final long window;
    private final long limit;
    private final int countBits;
    private final long countMask;
    /**
     * Window and limit below 2^31 (a window up to about 2.1 s): every count is at most the limit, so the weighted
     * comparison's products fit in a long.
     */
    private final boolean productsFitInLong;

    SlidingWindowCounter(RateLimitConfig config) {
        this.window = config.windowNanos();
        this.windows = new WindowClock(window);
        this.limit = config.limit();
        this.countBits = 64 - Long.numberOfLeadingZeros(limit);
        this.countMask = (1L << countBits) - 1;
        this.productsFitInLong = window <= Integer.MAX_VALUE && limit <= Integer.MAX_VALUE;
    }

    @Override
    public long acquire(long state, long t, long permits) {
        long stored = state >>> (2 * countBits);
        // The stored window's start, computed once: the window's end and the time elapsed in it both come from it.
        long start = windows.start(stored);
        long index = stored;
        if (t >= start + window) {
            index = windows.index(t);
            start = windows.start(index);
        }
        long prev = previous(state, stored, index);
        long curr = index == stored ? state & countMask : 0;
        long left = limit - curr - permits;
        if (left < 0 || !weightedFits(prev, window - Math.max(0, t - start), left)) {
            return DENIED;
        }
        return pack(index, prev, curr + permits);
    }

    /**
     * {@code prev * rest <= left * W}: in a long where both products fit, else exactly in 128 bits. One multiplication
     * each on the admission's path instead of two.
     */
    private boolean weightedFits(long prev, long rest, long left) {
        if (productsFitInLong) {
            return prev * rest <= left * window;
        }
        return Wide.productLessOrEqual(prev, rest, left, window);
    }

    @Override
    public long release(long state, long t, long permits) {
        long stored = state >>> (2 * countBits);
        if (windows.index(t) > stored) {
            return state;
        }
        long curr = state & countMask;
        return (state & ~countMask) | (curr - Math.min(curr, permits));
    }

    @Override
    public long undoToken(long state, long next) {
        return next >>> (2 * countBits);
    }

    @Override
    public long undo(long state, long token, long after, long permits) {
        long stored = state >>> (2 * countBits);
        if (stored == token) {
            return state - Math.min(state & countMask, permits);
        }
        if (stored == token + 1) {
            long prev = (state >>> countBits) & countMask;
            return state - (Math.min(prev, permits) << countBits);
        }
        return state; // two windows on: the admission's window weighs nothing
    }

    @Override
    public boolean isIdle(long state, long t) {
        return (state >>> (2 * countBits)) + 1 < windows.index(t);
    }

    @Override
    public long freshState(long t) {
        return windows.index(t) << (2 * countBits);
    }

    @Override
    public void describe(long state, long next, long t, long permits, Decision d) {
        long stored = state >>> (2 * countBits);
        long index = windows.latest(stored, t);
        long prev = previous(state, stored, index);
        long curr = index == stored ? state & countMask : 0;
        long e = elapsedIn(index, t);
        long now = windows.start(index) + e;
        boolean allowed = next != DENIED;
        long after = allowed ? curr + permits : curr;
        // Weighted previous count, rounded up: the largest n admitted now is limit - after - ceil(prev*(W-e)/W).
        long weighted = prev - Wide.mulDivFloor(prev, e, window);
        long remaining = Math.max(0, limit - after - weighted);
        long reset = after > 0 ? windows.end(index + 1) - now : prev > 0 ? windows.end(index) - now : 0;
        if (allowed) {
            d.set(true, limit, remaining, 0, reset, 0);
        } else {
            d.set(false, limit, remaining, retryAfter(prev, curr, e, permits), reset, 0);
        }
    }

    /** Time from {@code e} until {@code permits} fit, if no other request comes. */
    private long retryAfter(long prev, long curr, long e, long permits) {
        if (permits > limit) {
            return Decision.NEVER;
        }
        long left = limit - curr - permits;
        if (left >= 0 && prev > 0) {
            // Within this window: need prev * (W - e') <= left * W, i.e. e' >= W - floor(left * W / prev).
            long at = window - Wide.mulDivFloor(left, window, prev);
            if (at < window) {
                return Math.max(0, at - e);
            }
        }
        // Next window: the current count becomes the previous one.
        long untilNext = window - e;
        if (curr == 0) {
            return untilNext;
        }
        long at = window - Math.min(window, Wide.mulDivFloor(limit - permits, window, curr));
        return at < window ? untilNext + at : untilNext + window;
    }

    private long previous(long state, long stored, long index) {
        if (index == stored) {
            return (state >>> countBits) & countMask;
        }
        return index == stored + 1 ? state & countMask : 0;
    }

    private long elapsedIn(long index, long t) {
        return Math.max(0, t - windows.start(index));
    }

    private long pack(long index, long prev, long curr) {
        return (index << (2 * countBits)) | (prev << countBits) | curr;
    }
}
