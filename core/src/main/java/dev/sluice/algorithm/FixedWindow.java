package dev.sluice.algorithm;

import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;

/**
 * Fixed window: at most {@code limit} permits per window {@code [k*W, (k+1)*W)} of the limiter's time line.
 *
 * <pre>
 * state: [ 0 | window index (63 - c bits) | count (c bits) ]     c = bits(limit)
 * </pre>
 * The window index counts windows since the limiter's origin, aligned to multiples of {@code W} on the clock;
 * {@link RateLimitConfig#maxLimit} keeps enough index bits for {@link RateLimitConfig#HORIZON_NANOS}. The index
 * never goes back: a request at an earlier time is counted in the key's latest window.
 *
 * <p>Undo: an admission records the index of the window it was counted in (the index of the state it left). An undo
 * takes its permits off the count only while the key's stored window is still that one: a later window holds other
 * requests' permits, and the admission's own window is over, so nothing it took still counts. The count is the sum
 * of the window's admissions not undone, so the window never holds more than {@code limit} of them.
 */
public final class FixedWindow implements PackedAlgorithm {

    private final WindowClock windows;
    private final long limit;
    private final int countBits;
    private final long countMask;

    FixedWindow(RateLimitConfig config) {
        this.windows = new WindowClock(config.windowNanos());
        this.limit = config.limit();
        this.countBits = 64 - Long.numberOfLeadingZeros(limit);
        this.countMask = (1L << countBits) - 1;
    }

    @Override
    public long acquire(long state, long t, long permits) {
        long stored = state >>> countBits;
        long index = windows.latest(stored, t);
        long count = index == stored ? state & countMask : 0;
        if (permits > limit - count) {
            return DENIED;
        }
        return (index << countBits) | (count + permits);
    }

    @Override
    public long release(long state, long t, long permits) {
        long stored = state >>> countBits;
        if (windows.index(t) > stored) {
            return state; // the window that held those permits is over
        }
        long count = state & countMask;
        return (stored << countBits) | (count - Math.min(count, permits));
    }

    @Override
    public long undoToken(long state, long next) {
        return next >>> countBits;
    }

    @Override
    public long undo(long state, long token, long after, long permits) {
        if (state >>> countBits != token) {
            return state; // the admission's window is over: what it took no longer counts
        }
        return state - Math.min(state & countMask, permits);
    }

    @Override
    public boolean isIdle(long state, long t) {
        return (state >>> countBits) < windows.index(t);
    }

    @Override
    public long freshState(long t) {
        return windows.index(t) << countBits;
    }

    @Override
    public void describe(long state, long next, long t, long permits, Decision d) {
        long stored = state >>> countBits;
        long index = windows.latest(stored, t);
        long count = index == stored ? state & countMask : 0;
        long untilEnd = windows.end(index) - Math.max(t, windows.start(index));
        if (next != DENIED) {
            d.set(true, limit, limit - count - permits, 0, untilEnd, 0);
        } else {
            long retry = permits > limit ? Decision.NEVER : untilEnd;
            d.set(false, limit, limit - count, retry, count > 0 ? untilEnd : 0, 0);
        }
    }
}
