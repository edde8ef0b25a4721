package dev.sluice.reference;

import dev.sluice.Decision;

/**
 * TOKEN_BUCKET and LEAKY_BUCKET: a bucket of credit in nanoseconds, capacity {@code tau = B*T}, starting full and
 * refilled one nanosecond of credit per nanosecond. {@code n} permits cost {@code n*T}. The leaky bucket is the same
 * bucket seen as a queue whose level is {@code tau - credit}: an admission waits for the level before it.
 */
final class BucketState extends KeyState {

    private final Limits limits;
    private final boolean leaky;
    private long credit;
    /** Elapsed time of the last refill; 0 at first, harmless since a fresh bucket is already full. */
    private long last;

    BucketState(Limits limits, boolean leaky) {
        this.limits = limits;
        this.leaky = leaky;
        this.credit = limits.capacityNanos();
    }

    @Override
    boolean decide(long t, long permits, Decision d) {
        refill(t);
        long tau = limits.capacityNanos();
        long interval = limits.intervalNanos();
        long burst = limits.burst();
        // permits <= burst first, so that permits * interval <= tau cannot overflow.
        boolean admit = permits <= burst && credit >= permits * interval;
        if (admit) {
            long before = credit;
            credit -= permits * interval;
            if (d != null) {
                d.set(true, burst, credit / interval, 0, tau - credit, leaky ? tau - before : 0);
            }
        } else if (d != null) {
            long retry = permits > burst ? Decision.NEVER : permits * interval - credit;
            d.set(false, burst, credit / interval, retry, tau - credit, 0);
        }
        return admit;
    }

    @Override
    void giveBack(long t, long permits) {
        refill(t);
        long tau = limits.capacityNanos();
        credit = permits >= limits.burst() ? tau : Math.min(tau, credit + permits * limits.intervalNanos());
    }

    private void refill(long t) {
        // credit <= 2^60 and t - last <= 2^58: the sum fits.
        credit = Math.min(limits.capacityNanos(), credit + (t - last));
        last = t;
    }
}
