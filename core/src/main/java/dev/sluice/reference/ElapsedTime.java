package dev.sluice.reference;

import dev.sluice.RateLimitConfig;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference limiter's time line: clock readings to elapsed time {@code t} in {@code [0, HORIZON_NANOS]}.
 *
 * <p>The origin is the first reading rounded down to a multiple of the window, so windows fall on multiples of the
 * window of the clock's own time line. It is kept as {@code firstReading - offset} and never computed, because that
 * difference may not fit in a {@code long}: {@code now - origin = (now - firstReading) + offset}, each step
 * saturating. A time earlier than the latest time seen counts as that latest time (limiter-wide).
 */
final class ElapsedTime {

    private final long firstReading;
    /** {@code firstReading - origin}, in {@code [0, window)}. */
    private final long offset;
    /** Atomic read-modify-write: the limiter-wide maximum needs one total order of updates across threads. */
    private final AtomicLong latest = new AtomicLong();

    ElapsedTime(long firstReading, long windowNanos) {
        this.firstReading = firstReading;
        this.offset = Math.floorMod(firstReading, windowNanos);
    }

    /**
     * The elapsed time of a reading, raised to the latest one seen, which it becomes if later. Callers hold the
     * key's monitor, so the times one key sees never decrease.
     */
    long advance(long now) {
        long t = saturatedAddOffset(saturatedSubtract(now, firstReading));
        long clamped = Math.max(0, Math.min(t, RateLimitConfig.HORIZON_NANOS));
        return latest.accumulateAndGet(clamped, Math::max);
    }

    private static long saturatedSubtract(long a, long b) {
        try {
            return Math.subtractExact(a, b);
        } catch (ArithmeticException overflow) {
            return a < b ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private long saturatedAddOffset(long a) {
        try {
            return Math.addExact(a, offset);
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE; // offset >= 0: only upwards
        }
    }
}
