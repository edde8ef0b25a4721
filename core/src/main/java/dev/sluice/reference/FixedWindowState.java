package dev.sluice.reference;

import dev.sluice.Decision;

/** FIXED_WINDOW: a count for window {@code k = floor(t / W)}; at most L per window; the index never goes back. */
final class FixedWindowState extends KeyState {

    private final Limits limits;
    private long window;
    private long count;

    FixedWindowState(Limits limits) {
        this.limits = limits;
    }

    @Override
    boolean decide(long t, long permits, Decision d) {
        long w = limits.windowNanos();
        long l = limits.limit();
        long index = t / w;
        if (index > window) {
            window = index;
            count = 0;
        }
        // permits <= l first, so that count + permits cannot overflow.
        boolean admit = permits <= l && count + permits <= l;
        if (admit) {
            count += permits;
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
}
