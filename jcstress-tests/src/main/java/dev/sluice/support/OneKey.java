package dev.sluice.support;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import java.time.Duration;

/**
 * One key of a real limiter, set up before the actors start: a fresh {@link ManualClock} at 0 (so the limiter's
 * origin is 0 and caller times are its elapsed times), then {@code limit - left} permits taken at {@link #NOW}.
 * Not thread-safe itself: the constructor and {@link #drainAndClose} run in JCStress's harness and arbiter, the
 * limiter calls in between are what the tests race.
 */
public final class OneKey {

    /** The window of every config here: 1 s, so that {@link #NOW} and its neighbours sit inside window 0. */
    public static final long WINDOW = 1_000_000_000L;
    /** The frozen time of the contention tests: the middle of window 0. */
    public static final long NOW = WINDOW / 2;
    public static final long KEY = 42L;

    public final ManualClock clock = new ManualClock();
    public final RateLimiter limiter;
    private final long limit;

    public OneKey(Algorithm algorithm, long limit, long left) {
        this(algorithm, limit, left, NOW);
    }

    /** As above, the permits taken at {@code setupNanos} instead of {@link #NOW}. */
    public OneKey(Algorithm algorithm, long limit, long left, long setupNanos) {
        this.limit = limit;
        this.limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, limit, Duration.ofNanos(WINDOW)))
                .clock(clock).maxKeys(16).build();
        for (long i = 0; i < limit - left; i++) {
            takeInSetup(setupNanos);
        }
    }

    /** Takes one permit at {@code nowNanos} while a test sets its key up; a denial there is a broken test. */
    public void takeInSetup(long nowNanos) {
        if (!limiter.tryAcquire(KEY, 1, nowNanos)) {
            throw new IllegalStateException("setup denied a permit at " + nowNanos + " ns");
        }
    }

    /** Asks for {@code permits} at {@link #NOW}; returns the permits admitted (all or none). */
    public int take(long permits) {
        return limiter.tryAcquire(KEY, permits, NOW) ? (int) permits : 0;
    }

    /** Asks for one permit at {@code nowNanos}; returns 1 if admitted. */
    public int takeAt(long nowNanos) {
        return limiter.tryAcquire(KEY, 1, nowNanos) ? 1 : 0;
    }

    /** Asks for one permit at the limiter's clock; returns 1 if admitted. */
    public int takeOnClock() {
        return limiter.tryAcquire(KEY) ? 1 : 0;
    }

    /** Takes single permits at {@code nowNanos} until one is denied; returns how many were left. */
    public int drain(long nowNanos) {
        int n = 0;
        while (n <= limit && takeAt(nowNanos) == 1) {
            n++;
        }
        return n;
    }

    /** {@link #drain}, then frees the limiter (the arbiter runs after every actor, so nothing is in flight). */
    public int drainAndClose(long nowNanos) {
        int n = drain(nowNanos);
        limiter.close();
        return n;
    }
}
