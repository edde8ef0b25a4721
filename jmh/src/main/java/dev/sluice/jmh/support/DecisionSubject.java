package dev.sluice.jmh.support;

import dev.sluice.Clock;
import dev.sluice.RateLimiter;

/** A Sluice limiter reading its clock and filling the caller's {@link dev.sluice.Decision} (headers path). */
final class DecisionSubject implements Subject {

    private final RateLimiter limiter;
    private final Clock clock;

    DecisionSubject(RateLimiter limiter) {
        this.limiter = limiter;
        this.clock = limiter.clock();
    }

    @Override
    public boolean tryAcquire(long key, Caller caller) {
        return limiter.tryAcquire(key, 1L, clock.nanoTime(), caller.decision);
    }

    @Override
    public boolean tryAcquire(String key, Caller caller) {
        return limiter.tryAcquire(key, 1L, clock.nanoTime(), caller.decision);
    }

    @Override
    public String describe() {
        return "liveKeys=" + limiter.liveKeys() + " tableFullEvents=" + limiter.tableFullEvents();
    }

    @Override
    public void close() {
        limiter.close();
    }
}
