package dev.sluice;

import java.time.Instant;

/** {@link Clock#epoch()}: the wall clock read once, then advanced by {@link System#nanoTime()}. */
enum EpochClock implements Clock {
    INSTANCE;

    /** Read together at first use: the wall clock in nanoseconds since 1970 and the monotonic clock. */
    private final long epochAtAnchor;
    private final long nanoAtAnchor;

    EpochClock() {
        Instant wall = Instant.now();
        nanoAtAnchor = System.nanoTime();
        epochAtAnchor = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
    }

    @Override
    public long nanoTime() {
        // Wrapping difference, as System.nanoTime requires; monotonic because nanoTime is.
        return epochAtAnchor + (System.nanoTime() - nanoAtAnchor);
    }
}
