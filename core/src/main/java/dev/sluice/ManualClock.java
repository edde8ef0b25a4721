package dev.sluice;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A clock moved only by its owner, for deterministic tests and trace replay. Starts at 0. Read as nanoseconds since
 * 1970 (UTC), it stands in for {@link Clock#epoch()}: set it to a calendar time to test calendar windows.
 * Thread-safe: the time is a volatile field, so a change is visible to every thread at once.
 * It may be moved backwards, to test that a limiter never grants extra permits when it is.
 */
public final class ManualClock implements Clock {

    private volatile long nanos;

    /** A clock at time 0. */
    public ManualClock() {
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    /** Sets the time, in milliseconds from the clock's origin. */
    public void setMillis(long millis) {
        nanos = TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Sets the time, in nanoseconds from the clock's origin. */
    public void setNanos(long nanos) {
        this.nanos = nanos;
    }

    /** Moves the clock forward (or backward, if negative) by {@code millis}. */
    public void advanceMillis(long millis) {
        advanceNanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** Moves the clock by {@code duration}. */
    public void advance(Duration duration) {
        advanceNanos(duration.toNanos());
    }

    /** Moves the clock by {@code delta} nanoseconds. Not atomic with concurrent moves: one owner moves the clock. */
    public void advanceNanos(long delta) {
        nanos = nanos + delta;
    }

    /** The current time in milliseconds (rounded down). */
    public long millis() {
        return Math.floorDiv(nanos, 1_000_000L);
    }

    @Override
    public String toString() {
        return "ManualClock[" + nanos + " ns]";
    }
}
