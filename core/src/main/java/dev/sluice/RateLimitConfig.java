package dev.sluice;

import dev.sluice.engine.Human;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * One limit: an algorithm, a number of permits and a window. Immutable; equal configs share one limiter in a
 * {@link RateLimiterService}.
 *
 * <p>Ranges, checked at construction (each violation names the field and its allowed range):
 * <ul>
 *   <li>{@code window}: 1 ms to 366 days.</li>
 *   <li>{@code limit}: at least 1, and at most what the algorithm's packed state can hold for that window
 *       ({@link #maxLimit(Algorithm, Duration)}): the emission interval of the token and leaky buckets must be at
 *       least 1 ns; the window counters need enough bits left for the window number over {@link #HORIZON_NANOS};
 *       the sliding log holds at most {@value #MAX_LOG_LIMIT} timestamps per key.</li>
 *   <li>{@code burst} (token and leaky bucket only, defaults to {@code limit}): 1 to {@link #maxBurst()}.</li>
 *   <li>{@code alignment} (fixed window and sliding window counter only, defaults to UTC): any {@link ZoneOffset}.</li>
 * </ul>
 *
 * <p><b>Calendar windows.</b> Fixed and sliding-counter windows fall on multiples of the window on the limiter's
 * clock, shifted by the {@linkplain #alignedTo alignment}: a window starts wherever {@code clock + offset} is a
 * multiple of {@code W}. With {@link Clock#epoch()} (nanoseconds since 1970, UTC) a day window therefore starts at
 * 00:00 UTC on every node, as on the Redis backend; {@code alignedTo(ZoneOffset.ofHours(2))} makes it start at
 * 00:00 at +02:00 (22:00 UTC). On {@link Clock#system()} the time line has no calendar meaning, so neither has the
 * alignment.
 */
public final class RateLimitConfig {

    /** Shortest window: 1 ms. */
    public static final Duration MIN_WINDOW = Duration.ofMillis(1);
    /** Longest window: 366 days. */
    public static final Duration MAX_WINDOW = Duration.ofDays(366);
    /**
     * How long one limiter's time line runs: 2^58 ns, about 9.1 years from its creation. Time beyond it is held at
     * the horizon (saturated), so windows stop rolling and buckets stop refilling: a limiter past it fails closed.
     */
    public static final long HORIZON_NANOS = 1L << 58;
    /**
     * How far ahead of the limiter's own clock a caller's {@code nowNanos} may be: 1 hour. A reading further ahead
     * is impossible for a caller that reads the same clock (a mistake such as a wall-clock time in nanoseconds), so
     * the call throws {@link IllegalArgumentException} and changes nothing. Readings behind the clock are accepted:
     * each key's time never goes back, so they count as no time passing for that key.
     */
    public static final long MAX_LEAD_NANOS = 3_600_000_000_000L;
    /** Largest limit of the sliding log (its ring holds one {@code long} per permit). */
    public static final long MAX_LOG_LIMIT = 65_536;
    /** Largest limit or burst of any algorithm, so that permit arithmetic never overflows. */
    public static final long MAX_PERMITS = 1L << 40;

    private final Algorithm algorithm;
    private final long limit;
    private final Duration window;
    private final long windowNanos;
    private final long burst;
    private final ZoneOffset alignment;

    /** {@code limit} permits per {@code windowMillis} milliseconds. */
    public RateLimitConfig(Algorithm algorithm, int limit, long windowMillis) {
        this(algorithm, limit, checkedMillis(windowMillis), -1, ZoneOffset.UTC);
    }

    private RateLimitConfig(Algorithm algorithm, long limit, Duration window, long burst, ZoneOffset alignment) {
        this.algorithm = Objects.requireNonNull(algorithm, "algorithm must not be null");
        Objects.requireNonNull(window, "window must not be null");
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("window must be from " + Human.duration(MIN_WINDOW) + " to "
                    + Human.duration(MAX_WINDOW) + ", was " + Human.duration(window));
        }
        this.window = window;
        this.windowNanos = window.toNanos();
        long max = maxLimit(algorithm, window);
        if (limit < 1 || limit > max) {
            throw new IllegalArgumentException("limit must be in [1, " + max + "] for " + algorithm + " with a window of "
                    + Human.duration(window) + ", was " + limit);
        }
        this.limit = limit;
        if (burst == -1) {
            this.burst = limit;
        } else {
            if (algorithm != Algorithm.TOKEN_BUCKET && algorithm != Algorithm.LEAKY_BUCKET) {
                throw new IllegalArgumentException("burst applies to TOKEN_BUCKET and LEAKY_BUCKET only, not " + algorithm);
            }
            long maxBurst = maxBurst(limit, windowNanos);
            if (burst < 1 || burst > maxBurst) {
                throw new IllegalArgumentException("burst must be in [1, " + maxBurst + "] for " + limit + " per "
                        + Human.duration(window) + ", was " + burst);
            }
            this.burst = burst;
        }
        this.alignment = Objects.requireNonNull(alignment, "alignment must not be null");
        if (alignment.getTotalSeconds() != 0 && algorithm != Algorithm.FIXED_WINDOW
                && algorithm != Algorithm.SLIDING_WINDOW_COUNTER) {
            throw new IllegalArgumentException("alignment applies to FIXED_WINDOW and SLIDING_WINDOW_COUNTER only, not "
                    + algorithm);
        }
    }

    /** {@code limit} permits per {@code window}. */
    public static RateLimitConfig of(Algorithm algorithm, long limit, Duration window) {
        return new RateLimitConfig(algorithm, limit, window, -1, ZoneOffset.UTC);
    }

    /**
     * The same sustained rate with a different burst (capacity): e.g. 100 per minute with bursts of at most 10.
     * TOKEN_BUCKET and LEAKY_BUCKET only.
     */
    public RateLimitConfig withBurst(long burst) {
        return new RateLimitConfig(algorithm, limit, window, burst, alignment);
    }

    /**
     * The same limit with its windows aligned to {@code offset}: windows start where the clock plus the offset is a
     * multiple of the window, so with {@link Clock#epoch()} a day starts at 00:00 in that offset (see the class
     * comment). FIXED_WINDOW and SLIDING_WINDOW_COUNTER only (the buckets and the log have no windows to align);
     * {@link ZoneOffset#UTC}, the default, is accepted for every algorithm.
     */
    public RateLimitConfig alignedTo(ZoneOffset offset) {
        return new RateLimitConfig(algorithm, limit, window, burst == limit ? -1 : burst, offset);
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    public long limit() {
        return limit;
    }

    public Duration window() {
        return window;
    }

    /** The window in nanoseconds. */
    public long windowNanos() {
        return windowNanos;
    }

    /** The most permits one key can take at once: the capacity of a bucket, {@code limit} for the others. */
    public long burst() {
        return burst;
    }

    /** The offset windows are aligned to ({@link ZoneOffset#UTC} unless set by {@link #alignedTo}). */
    public ZoneOffset alignment() {
        return alignment;
    }

    /** The alignment in nanoseconds: a window starts where {@code clock + alignmentNanos()} is a multiple of it. */
    public long alignmentNanos() {
        return alignment.getTotalSeconds() * 1_000_000_000L;
    }

    /** The largest limit {@code algorithm} supports with {@code window} (see the class comment). */
    public static long maxLimit(Algorithm algorithm, Duration window) {
        long w = window.toNanos();
        switch (algorithm) {
            case TOKEN_BUCKET:
            case LEAKY_BUCKET:
                return Math.min(w, MAX_PERMITS);
            case FIXED_WINDOW:
                return Math.min(MAX_PERMITS, (1L << (63 - windowIndexBits(w))) - 1);
            case SLIDING_WINDOW_COUNTER:
                return Math.min(MAX_PERMITS, (1L << ((63 - windowIndexBits(w)) / 2)) - 1);
            case SLIDING_WINDOW_LOG:
                return MAX_LOG_LIMIT;
            default:
                throw new AssertionError(algorithm);
        }
    }

    /** Bits needed for the number of windows in {@link #HORIZON_NANOS}. */
    public static int windowIndexBits(long windowNanos) {
        return 64 - Long.numberOfLeadingZeros(HORIZON_NANOS / windowNanos);
    }

    /** The largest burst this config's rate allows: the bucket's tolerance {@code burst * T} stays below 2^60 ns. */
    public long maxBurst() {
        return maxBurst(limit, windowNanos);
    }

    private static long maxBurst(long limit, long windowNanos) {
        long emission = emissionIntervalNanos(limit, windowNanos);
        return Math.min(MAX_PERMITS, (1L << 60) / emission);
    }

    /** The token and leaky buckets' emission interval: {@code ceil(W / limit)} ns, never faster than the ideal rate. */
    public static long emissionIntervalNanos(long limit, long windowNanos) {
        return (windowNanos + limit - 1) / limit;
    }

    private static Duration checkedMillis(long windowMillis) {
        if (windowMillis < MIN_WINDOW.toMillis() || windowMillis > MAX_WINDOW.toMillis()) {
            throw new IllegalArgumentException("windowMillis must be in [" + MIN_WINDOW.toMillis() + ", "
                    + MAX_WINDOW.toMillis() + "] (" + Human.duration(MIN_WINDOW) + " to " + Human.duration(MAX_WINDOW)
                    + "), was " + windowMillis);
        }
        return Duration.ofMillis(windowMillis);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RateLimitConfig)) {
            return false;
        }
        RateLimitConfig that = (RateLimitConfig) o;
        return algorithm == that.algorithm && limit == that.limit && windowNanos == that.windowNanos
                && burst == that.burst && alignment.equals(that.alignment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, limit, windowNanos, burst, alignment);
    }

    @Override
    public String toString() {
        return algorithm + " " + limit + "/" + window + (burst != limit ? " burst " + burst : "")
                + (alignment.getTotalSeconds() != 0 ? " aligned to " + alignment : "");
    }
}
