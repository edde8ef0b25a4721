package dev.sluice.jmh.support;

import dev.sluice.RateLimiter;

/** A Sluice limiter given the time by its caller: no clock read per decision. */
final class CallerTimeSubject implements Subject {

    private final RateLimiter limiter;

    CallerTimeSubject(RateLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public boolean tryAcquire(long key, Caller caller) {
        return limiter.tryAcquire(key, 1L, caller.tick());
    }

    @Override
    public boolean tryAcquire(String key, Caller caller) {
        return limiter.tryAcquire(key, 1L, caller.tick());
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
