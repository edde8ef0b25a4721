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
        long now = log.isEmpty() ? t : Math.max(t, log.peekLast());
        while (!log.isEmpty() && log.peekFirst() <= now - w) {
            log.pollFirst();
        }
        // permits <= l first, so that size + permits cannot overflow.
        boolean admit = permits <= l && log.size() + permits <= l;
        if (admit) {
            for (long i = 0; i < permits; i++) {
                log.addLast(now);
            }
        }
        if (d != null) {
            long reset = log.isEmpty() ? 0 : log.peekLast() + w - now;
            long retry = admit ? 0 : permits > l ? Decision.NEVER : retryAfter(now, permits);
            d.set(admit, l, l - log.size(), retry, reset, 0);
        }
        return admit;
    }

    /** Room for {@code permits} comes when the {@code (L - permits + 1)}-th newest timestamp leaves the window. */
    private long retryAfter(long now, long permits) {
        long rank = limits.limit() - permits + 1;
        long seen = 0;
        Iterator<Long> newestFirst = log.descendingIterator();
        while (newestFirst.hasNext()) {
            long stamp = newestFirst.next();
            if (++seen == rank) {
                return stamp + limits.windowNanos() - now;
            }
        }
        return 0;
    }

    @Override
    void giveBack(long t, long permits) {
        long removed = 0;
        Iterator<Long> newestFirst = log.descendingIterator();
        while (removed < permits && newestFirst.hasNext()) {
            if (newestFirst.next() <= t) {
                newestFirst.remove();
                removed++;
            }
        }
    }
}
