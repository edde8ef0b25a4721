package dev.sluice.jmh.support;

import dev.sluice.RateLimiter;

/** A Sluice {@link RateLimiter} (the engine or the reference) reading its own clock, as most callers use it. */
final class LimiterSubject implements Subject {

    private final RateLimiter limiter;

    LimiterSubject(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public boolean tryAcquire(long key, Caller caller) {
        return limiter.tryAcquire(key);
    }

    @Override
    public boolean tryAcquire(String key, Caller caller) {
        return limiter.tryAcquire(key);
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
