package dev.sluice.reference;

import dev.sluice.Decision;
import java.util.HashMap;
import java.util.Map;

/**
 * FIXED_WINDOW: a count for window {@code k = floor(t / W)}; at most L per window; the index never goes back. The
 * current window's undoable admissions are kept by name with their permits; an undo takes off the count exactly the
 * permits of a named admission of the current window, once.
 */
final class FixedWindowState extends KeyState {

    private final Limits limits;
    private long window;
    private long count;
    /** Admission name to permits, for the admissions of {@link #window} not undone. */
    private final Map<Long, Long> undoable = new HashMap<>();

    FixedWindowState(Limits limits) {
        this.limits = limits;
    }

    @Override
    boolean decide(long t, long permits, long admission, Decision d) {
        long w = limits.windowNanos();
        long l = limits.limit();
        long index = t / w;
        if (index > window) {
            window = index;
            count = 0;
            undoable.clear();
        }
        // permits <= l first, so that count + permits cannot overflow.
        boolean admit = permits <= l && count + permits <= l;
        if (admit) {
            count += permits;
            if (admission != 0) {
                undoable.put(admission, permits);
            }
        }
        if (d != null) {
            long untilWindowEnd = (window + 1) * w - t;
            long retry = admit ? 0 : permits > l ? Decision.NEVER : untilWindowEnd;
            d.set(admit, l, l - count, retry, count > 0 ? untilWindowEnd : 0, 0);
        }
        return admit;
    }

    @Override
    void giveBack(long t, long permits) {
        if (t / limits.windowNanos() == window) { // else the permits were taken in a window now over
            count -= Math.min(permits, count);
        }
    }

    @Override
    void takeBack(long admission, long permits) {
        Long taken = undoable.remove(admission);
        if (taken != null) { // else of an earlier window, or undone already
            count -= Math.min(taken, count);
        }
    }
}
