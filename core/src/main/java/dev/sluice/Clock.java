package dev.sluice;

/**
 * The limiter's time line, in nanoseconds. Only differences matter to the algorithms; the origin matters to
 * windows, which fall on multiples of their length on this line (see {@link RateLimitConfig#alignedTo}).
 * Implementations must be thread-safe. A clock that steps backwards never grants extra permits.
 */
@FunctionalInterface
public interface Clock {

    /** The current time in nanoseconds on this clock's time line. */
    long nanoTime();

    /** {@link System#nanoTime()}: monotonic, not wall-clock time; its origin is arbitrary. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /**
     * Nanoseconds since 1970-01-01T00:00Z, monotonic between readings, read without allocation: the wall clock is
     * read once, when this clock is first used, and then advanced by {@link System#nanoTime()} differences. Windows
     * on it are calendar windows: a day window starts at 00:00 UTC on every node whose wall clock was right at
     * that first use, and on the Redis backend, which counts windows on Redis's {@code TIME} since 1970.
     *
     * <p>It does not follow later steps of the wall clock (an NTP correction, a manual change, a leap second
     * smeared or stepped). That is the right trade for a limiter: a step back would freeze every key's windows and
     * a step forward would end windows early and admit a second window's worth at once, while the two clocks only
     * drift apart by such steps (the monotonic clock is slewed with the wall clock). A process that lives for
     * months across a large correction keeps its boundaries off by that correction until it restarts.
     */
    static Clock epoch() {
        return EpochClock.INSTANCE;
    }
}
