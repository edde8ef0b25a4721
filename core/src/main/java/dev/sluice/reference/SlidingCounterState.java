package dev.sluice.reference;

import dev.sluice.Decision;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * SLIDING_WINDOW_COUNTER: the counts of the current window {@code k} and of window {@code k - 1}. A request of
 * {@code n} is admitted iff {@code prev * (W - e) / W + curr + n <= L}, {@code e} the time since window {@code k}
 * began, compared exactly as {@code prev * (W - e) + (curr + n) * W <= L * W}. The undoable admissions of both
 * windows are kept by name with their permits; an undo takes its permits off the count of the window it was counted
 * in, once, and does nothing once that window is older than the previous one.
 */
final class SlidingCounterState extends KeyState {

    private final Limits limits;
    /** Index of the current window. */
    private long window;
    private long prev;
    private long curr;
    /** Admission name to permits, for the admissions of the previous and of the current window not undone. */
    private Map<Long, Long> undoablePrev = new HashMap<>();
    private Map<Long, Long> undoableCurr = new HashMap<>();

    SlidingCounterState(Limits limits) {
        this.limits = limits;
    }

    @Override
    boolean decide(long t, long permits, long admission, Decision d) {
        long w = limits.windowNanos();
        long l = limits.limit();
        long index = t / w;
        if (index > window) {
            prev = index == window + 1 ? curr : 0;
            undoablePrev = index == window + 1 ? undoableCurr : new HashMap<>();
            undoableCurr = new HashMap<>();
            curr = 0;
            window = index;
        }
        boolean admit = permits <= l && admitsAt(t, permits);
        if (admit) {
            curr += permits;
            if (admission != 0) {
                undoableCurr.put(admission, permits);
            }
        }
        if (d != null) {
            long e = t - window * w;
            long remaining = Math.max(0, l - curr - ceilMulDiv(prev, w - e, w));
            long reset = curr > 0 ? 2 * w - e : prev > 0 ? w - e : 0;
            long retry = admit ? 0 : permits > l ? Decision.NEVER : retryAfter(t, permits);
            d.set(admit, l, remaining, retry, reset, 0);
        }
        return admit;
    }

    @Override
    void giveBack(long t, long permits) {
        if (t / limits.windowNanos() == window) { // else the permits were taken in a window now over
            curr -= Math.min(permits, curr);
        }
    }

    @Override
    void takeBack(long admission, long permits) {
        Long inCurrent = undoableCurr.remove(admission);
        if (inCurrent != null) {
            curr -= Math.min(inCurrent, curr);
            return;
        }
        Long inPrevious = undoablePrev.remove(admission);
        if (inPrevious != null) {
            prev -= Math.min(inPrevious, prev);
        }
    }

    /**
     * Whether {@code permits} (at most L) would be admitted at {@code time}, not before the last decision, if nothing
     * happened before it.
     */
    private boolean admitsAt(long time, long permits) {
        long w = limits.windowNanos();
        long index = time / w;
        long p;
        long c;
        if (index == window) {
            p = prev;
            c = curr;
        } else if (index == window + 1) {
            p = curr;
            c = 0;
        } else {
            p = 0;
            c = 0;
        }
        long e = time - index * w;
        return fits(p, w - e, c + permits);
    }

    /**
     * The smallest {@code d > 0} with {@link #admitsAt}{@code (t + d)}, by binary search: admission is monotone in
     * time (the previous window's weight only falls, and a window roll moves {@code curr} to {@code prev} at full
     * weight), and two windows on everything has expired.
     */
    private long retryAfter(long t, long permits) {
        long lo = 0;
        long hi = (window + 2) * limits.windowNanos() - t;
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (admitsAt(t + mid, permits)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** {@code p * rest + c * W <= L * W}, exactly. */
    private boolean fits(long p, long rest, long c) {
        long w = limits.windowNanos();
        long l = limits.limit();
        try {
            return Math.addExact(Math.multiplyExact(p, rest), Math.multiplyExact(c, w)) <= Math.multiplyExact(l, w);
        } catch (ArithmeticException overflow) {
            BigInteger left = big(p).multiply(big(rest)).add(big(c).multiply(big(w)));
            return left.compareTo(big(l).multiply(big(w))) <= 0;
        }
    }

    /** {@code ceil(a * b / c)} for non-negative {@code a, b} and positive {@code c}, exactly. */
    private static long ceilMulDiv(long a, long b, long c) {
        try {
            long product = Math.multiplyExact(a, b);
            return product / c + (product % c == 0 ? 0 : 1);
        } catch (ArithmeticException overflow) {
            BigInteger[] qr = big(a).multiply(big(b)).divideAndRemainder(big(c));
            return qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
        }
    }

    private static BigInteger big(long v) {
        return BigInteger.valueOf(v);
    }
}
