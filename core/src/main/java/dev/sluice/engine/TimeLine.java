package dev.sluice.engine;

import dev.sluice.RateLimitConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Turns clock readings into the limiter's elapsed time {@code t} in {@code [0, HORIZON_NANOS]}, the only time the
 * algorithms see.
 *
 * <ul>
 *   <li>The origin is the first reading rounded down to a multiple of the window, so windows fall on
 *       {@code [k*W, (k+1)*W)} of the clock's own time line.</li>
 *   <li>Readings before the origin count as the origin; readings past the horizon saturate at it (time stops,
 *       so the limiter fails closed); no subtraction can overflow.</li>
 *   <li>A reading earlier than the high-water mark (the latest reading seen, kept to within
 *       {@value #HIGH_WATER_STEP_NANOS} ns) counts as that mark: a clock that steps back is no time passing.
 *       The mark is written at most once per step, so threads on one limiter do not contend on it.</li>
 * </ul>
 */
final class TimeLine {

    static final long HIGH_WATER_STEP_NANOS = 1_000_000L;
    private static final VarHandle HIGH_WATER;

    static {
        try {
            HIGH_WATER = MethodHandles.lookup().findVarHandle(TimeLine.class, "highWater", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long origin;
    /** The reading of elapsed time HORIZON_NANOS, or Long.MAX_VALUE where that lies beyond the long range. */
    private final long last;
    @SuppressWarnings("unused") // accessed through HIGH_WATER
    private long highWater;

    TimeLine(long firstReading, long windowNanos) {
        long phase = Math.floorMod(firstReading, windowNanos);
        // Round down to a window boundary, or up where rounding down would fall below Long.MIN_VALUE.
        this.origin = firstReading - phase <= firstReading ? firstReading - phase : firstReading + (windowNanos - phase);
        this.last = origin > Long.MAX_VALUE - RateLimitConfig.HORIZON_NANOS ? Long.MAX_VALUE
                : origin + RateLimitConfig.HORIZON_NANOS;
    }

    long elapsed(long now) {
        // Clamped to [origin, last] first, so the subtraction cannot overflow. Clamps, not branches: the JIT makes
        // them conditional moves, with no rarely taken branch on the hot path.
        long d = Math.min(Math.max(now, origin), last) - origin;
        // Opaque: any recent value of the mark will do; it only ever lags the latest reading.
        long mark = (long) HIGH_WATER.getOpaque(this);
        if (d - mark > HIGH_WATER_STEP_NANOS) {
            HIGH_WATER.setOpaque(this, d);
        }
        return Math.max(d, mark);
    }

    /** The clock reading of elapsed time 0. */
    long origin() {
        return origin;
    }
}
