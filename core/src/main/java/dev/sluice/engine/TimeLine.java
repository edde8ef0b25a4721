package dev.sluice.engine;

import dev.sluice.Clock;
import dev.sluice.RateLimitConfig;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Turns clock readings into the limiter's elapsed time {@code t} in {@code [0, HORIZON_NANOS]}, the only time the
 * algorithms see.
 *
 * <ul>
 *   <li>The origin is the latest reading at or before the first one at which {@code reading + alignment} is a
 *       multiple of the window, so windows fall on {@code [k*W, (k+1)*W)} from it: on multiples of W on the clock's
 *       time line, shifted by the config's alignment (on {@link Clock#epoch()}, calendar windows).</li>
 *   <li>{@code t = now - origin} as a wrapping difference, as {@link System#nanoTime()} requires: a clock that
 *       passes {@code Long.MAX_VALUE} and wraps keeps counting, valid while readings stay within 2^63 ns (292
 *       years) of the origin. A difference below 0 (a reading before the origin) counts as 0; one past the horizon
 *       saturates at it (time stops, so the limiter fails closed).</li>
 *   <li>No limiter-wide mark: a reading affects only the key it decides. Each algorithm treats a time earlier than
 *       its key's state as no time passing, so a late reading never grants extra permits.</li>
 *   <li>A caller's reading more than {@link RateLimitConfig#MAX_LEAD_NANOS} ahead of the limiter's clock is
 *       rejected ({@link #callerElapsed}), so that no key (nor the table's reclaim times) can be pushed far into
 *       the future. The check costs one opaque read of a mark that is rarely written: the elapsed time of a recent
 *       clock reading; only a reading past that mark plus the lead reads the clock.</li>
 * </ul>
 */
final class TimeLine {

    private static final VarHandle CLOCK_MARK;

    static {
        try {
            CLOCK_MARK = MethodHandles.lookup().findVarHandle(TimeLine.class, "clockMark", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Clock clock;
    private final long origin;
    /** The elapsed time of a recent clock reading, at most the clock's elapsed time now; it only rises. */
    @SuppressWarnings("unused") // accessed through CLOCK_MARK
    private long clockMark;

    TimeLine(Clock clock, long windowNanos, long alignmentNanos) {
        this.clock = clock;
        long first = clock.nanoTime();
        // Each term reduced first, so the sum cannot overflow (2 W < 2^63).
        long phase = Math.floorMod(Math.floorMod(first, windowNanos) + Math.floorMod(alignmentNanos, windowNanos),
                windowNanos);
        // Wrapping subtraction: below Long.MIN_VALUE the origin wraps to the top of the range, and differences
        // from it are still right.
        this.origin = first - phase;
    }

    /** The elapsed time of a reading of the limiter's own clock. */
    long elapsed(long now) {
        // Clamps, not branches: the JIT makes them conditional moves, with no rarely taken branch on the hot path.
        return Math.min(Math.max(now - origin, 0), RateLimitConfig.HORIZON_NANOS);
    }

    /**
     * The elapsed time of a caller's reading.
     *
     * @throws IllegalArgumentException if it is more than {@link RateLimitConfig#MAX_LEAD_NANOS} ahead of the clock
     */
    long callerElapsed(long now) {
        long d = now - origin;
        // Opaque: any recent value of the mark will do; a stale one only sends the call to checkLead, which reads
        // the clock. A difference that wraps below it (d far negative) goes there too and is judged exactly.
        if (d - (long) CLOCK_MARK.getOpaque(this) > RateLimitConfig.MAX_LEAD_NANOS) {
            checkLead(now, d);
        }
        return Math.min(Math.max(d, 0), RateLimitConfig.HORIZON_NANOS);
    }

    private void checkLead(long now, long d) {
        long c = Math.max(clock.nanoTime() - origin, 0);
        // CAS loop: the mark only rises, so two racing raises can never leave the older reading in it.
        for (long m = (long) CLOCK_MARK.getOpaque(this); c > m; m = (long) CLOCK_MARK.getOpaque(this)) {
            if (CLOCK_MARK.weakCompareAndSetPlain(this, m, c)) {
                break;
            }
        }
        if (d > 0 && d - c > RateLimitConfig.MAX_LEAD_NANOS) {
            throw new IllegalArgumentException("nowNanos " + now + " is " + Human.nanos(d - c)
                    + " ahead of the limiter's clock; at most " + Human.nanos(RateLimitConfig.MAX_LEAD_NANOS)
                    + " ahead is accepted (is it a wall-clock time instead of the clock's nanoTime?)");
        }
    }

    /** The clock reading of elapsed time 0. */
    long origin() {
        return origin;
    }
}
