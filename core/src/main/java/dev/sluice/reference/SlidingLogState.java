package dev.sluice.reference;

import dev.sluice.Decision;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * SLIDING_WINDOW_LOG: the elapsed time of every admitted permit, oldest first. At most L in any {@code (t - W, t]}.
 */
final class SlidingLogState extends KeyState {

    private final Limits limits;
    private final ArrayDeque<Long> log = new ArrayDeque<>();

    SlidingLogState(Limits limits) {
        this.limits = limits;
    }

    @Override
    boolean decide(long t, long permits, Decision d) {
        long w = limits.windowNanos();
        long l = limits.limit();
        while (!log.isEmpty() && log.peekFirst() <= t - w) {
            log.pollFirst();
        }
        // permits <= l first, so that size + permits cannot overflow.
        boolean admit = permits <= l && log.size() + permits <= l;
        if (admit) {
            for (long i = 0; i < permits; i++) {
                log.addLast(t);
            }
        }
        if (d != null) {
            long reset = log.isEmpty() ? 0 : log.peekLast() + w - t;
            long retry = admit ? 0 : permits > l ? Decision.NEVER : retryAfter(t, permits);
            d.set(admit, l, l - log.size(), retry, reset, 0);
        }
        return admit;
    }

    /** Room for {@code permits} comes when the {@code (L - permits + 1)}-th newest timestamp leaves the window. */
    private long retryAfter(long t, long permits) {
        long rank = limits.limit() - permits + 1;
        long seen = 0;
        Iterator<Long> newestFirst = log.descendingIterator();
        while (newestFirst.hasNext()) {
            long stamp = newestFirst.next();
            if (++seen == rank) {
                return stamp + limits.windowNanos() - t;
            }
        }
        throw new AssertionError("a denied request of " + permits + " found fewer than " + rank + " timestamps");
    }

    /** Removes the newest {@code permits} timestamps: all are at or before {@code t}, which never goes back. */
    @Override
    void giveBack(long t, long permits) {
        for (long i = 0; i < permits && !log.isEmpty(); i++) {
            log.pollLast();
        }
    }
}
