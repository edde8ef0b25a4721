package dev.sluice.reference;

import dev.sluice.Clock;
import dev.sluice.RateLimitConfig;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The reference limiter's time line: clock readings to elapsed time {@code t} in {@code [0, HORIZON_NANOS]}.
 *
 * <p>The origin is the latest time at or before the first reading where {@code time + alignment} is a multiple of
 * the window. It is kept as
 * {@code firstReading - offset} and never computed: {@code t = (now - firstReading) + offset}, where
 * {@code now - firstReading} is a wrapping difference (readings compare by difference, as {@link System#nanoTime()}
 * requires) and the addition saturates. Below 0 counts as 0, past the horizon as the horizon.
 *
 * <p>A reading more than {@link RateLimitConfig#MAX_LEAD_NANOS} ahead of the clock is rejected with
 * {@link IllegalArgumentException} before anything changes. To spare most calls a clock read, the latest clock
 * time read is kept: a reading within the lead of it is within the lead of the clock now (the clock only moves on);
 * any other reading reads the clock and is judged against it.
 */
final class ElapsedTime {

    private final Clock clock;
    private final long firstReading;
    /** {@code firstReading - origin}, in {@code [0, window)}. */
    private final long offset;
    /** The largest elapsed time read from the clock so far (0 at first). */
    private final AtomicLong clockSeen = new AtomicLong();

    ElapsedTime(Clock clock, long windowNanos, long alignmentNanos) {
        this.clock = clock;
        this.firstReading = clock.nanoTime();
        this.offset = Math.floorMod(Math.floorMod(firstReading, windowNanos) + Math.floorMod(alignmentNanos, windowNanos),
                windowNanos);
    }

    /**
     * The elapsed time of a reading.
     *
     * @throws IllegalArgumentException if it is more than {@link RateLimitConfig#MAX_LEAD_NANOS} ahead of the clock
     */
    long of(long now) {
        long t = unclamped(now);
        if (t - clockSeen.get() > RateLimitConfig.MAX_LEAD_NANOS) { // t far below 0 wraps here, and is judged below
            long c = clockSeen.accumulateAndGet(Math.max(0, unclamped(clock.nanoTime())), Math::max);
            if (t > 0 && t - c > RateLimitConfig.MAX_LEAD_NANOS) {
                throw new IllegalArgumentException("nowNanos " + now + " is " + (t - c) / 1_000_000_000L
                        + " s ahead of the clock, more than the " + RateLimitConfig.MAX_LEAD_NANOS / 3_600_000_000_000L
                        + " hour accepted");
            }
        }
        return Math.max(0, Math.min(t, RateLimitConfig.HORIZON_NANOS));
    }

    private long unclamped(long now) {
        long sinceFirst = now - firstReading; // wrapping difference
        return sinceFirst > Long.MAX_VALUE - offset ? Long.MAX_VALUE : sinceFirst + offset;
    }
}
