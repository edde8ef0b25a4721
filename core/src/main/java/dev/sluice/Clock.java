package dev.sluice;

/**
 * The limiter's time line, in nanoseconds. Only differences matter; the origin is arbitrary.
 * Implementations must be thread-safe. A clock that steps backwards never grants extra permits.
 */
@FunctionalInterface
public interface Clock {

    /** The current time in nanoseconds on this clock's time line. */
    long nanoTime();

    /** {@link System#nanoTime()}: monotonic, not wall-clock time. */
    static Clock system() {
        return SystemClock.INSTANCE;
    }
}
