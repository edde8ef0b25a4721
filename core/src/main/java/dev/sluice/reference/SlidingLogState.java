package dev.sluice.reference;

import dev.sluice.Decision;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * SLIDING_WINDOW_LOG: the elapsed time of every admitted permit, oldest first, with the name of the admission that
 * took it. At most L in any {@code (t - W, t]}. An undo removes exactly the named admission's entries still logged.
 */
final class SlidingLogState extends KeyState {

    /** One admitted permit: when, and which admission took it (0: one that is never undone). */
    private record Entry(long time, long admission) {
    }

    private final Limits limits;
    private final ArrayDeque<Entry> log = new ArrayDeque<>();

    SlidingLogState(Limits limits) {
        this.limits = limits;
    }

    @Override
    boolean decide(long t, long permits, long admission, Decision d) {
        long w = limits.windowNanos();
        long l = limits.limit();
        while (!log.isEmpty() && log.peekFirst().time() <= t - w) {
            log.pollFirst();
        }
        // permits <= l first, so that size + permits cannot overflow.
        boolean admit = permits <= l && log.size() + permits <= l;
        if (admit) {
            for (long i = 0; i < permits; i++) {
                log.addLast(new Entry(t, admission));
            }
        }
        if (d != null) {
            long reset = log.isEmpty() ? 0 : log.peekLast().time() + w - t;
            long retry = admit ? 0 : permits > l ? Decision.NEVER : retryAfter(t, permits);
            d.set(admit, l, l - log.size(), retry, reset, 0);
        }
        return admit;
    }

    /** Room for {@code permits} comes when the {@code (L - permits + 1)}-th newest timestamp leaves the window. */
    private long retryAfter(long t, long permits) {
        long rank = limits.limit() - permits + 1;
        long seen = 0;
        Iterator<Entry> newestFirst = log.descendingIterator();
        while (newestFirst.hasNext()) {
            long stamp = newestFirst.next().time();
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

    @Override
    void takeBack(long admission, long permits) {
        log.removeIf(e -> e.admission() == admission);
    }
}
