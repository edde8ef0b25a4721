package dev.sluice.reference;

import dev.sluice.Decision;
import java.util.ArrayDeque;

/**
 * TOKEN_BUCKET and LEAKY_BUCKET: a bucket of credit in nanoseconds, capacity {@code tau = B*T}, starting full and
 * refilled one nanosecond of credit per nanosecond. {@code n} permits cost {@code n*T}. The leaky bucket is the same
 * bucket seen as a queue whose level is {@code tau - credit}: an admission waits for the level before it.
 *
 * <p>Undo: the undoable admissions not undone since the last change that was not an undoable admission are kept in
 * a stack, each with the bucket it found. An undo of the newest of them restores that bucket (the bucket as if the
 * admission never happened: refilling later from an earlier point is the same refill); an undo of any other
 * admission gives back nothing, since what came after it may have been admitted on a refill it did not take.
 * Another admission, a release, or more than {@value #MAX_UNDOABLE} undoable admissions in a row end the stack's
 * older entries.
 */
final class BucketState extends KeyState {

    private final Limits limits;
    private final boolean leaky;
    private long credit;
    /** Elapsed time of the last refill; 0 at first, harmless since a fresh bucket is already full. */
    private long last;
    /** Undoable admissions, newest first: {admission, credit before it, refill time before it}. */
    private final ArrayDeque<long[]> undoable = new ArrayDeque<>();
    /** Bound on {@link #undoable}: older admissions are no longer undone. */
    private static final int MAX_UNDOABLE = 1024;

    BucketState(Limits limits, boolean leaky) {
        this.limits = limits;
        this.leaky = leaky;
        this.credit = limits.capacityNanos();
    }

    @Override
    boolean decide(long t, long permits, long admission, Decision d) {
        refill(t);
        long tau = limits.capacityNanos();
        long interval = limits.intervalNanos();
        long burst = limits.burst();
        // permits <= burst first, so that permits * interval <= tau cannot overflow.
        boolean admit = permits <= burst && credit >= permits * interval;
        if (admit) {
            remember(admission);
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
        undoable.clear();
        refill(t);
        long tau = limits.capacityNanos();
        credit = permits >= limits.burst() ? tau : Math.min(tau, credit + permits * limits.intervalNanos());
    }

    /** Records the bucket an admission found, or ends the stack if that admission cannot be undone. */
    private void remember(long admission) {
        if (admission == 0) {
            undoable.clear();
            return;
        }
        if (undoable.size() == MAX_UNDOABLE) {
            undoable.removeLast();
        }
        undoable.push(new long[] {admission, credit, last});
    }

    @Override
    void takeBack(long admission, long permits) {
        long[] newest = undoable.peek();
        if (newest != null && newest[0] == admission) {
            undoable.pop();
            credit = newest[1];
            last = newest[2];
        } else {
            undoable.removeIf(r -> r[0] == admission); // built on: it can never be undone now
        }
    }

    private void refill(long t) {
        // credit <= 2^60 and t - last <= 2^58: the sum fits.
        credit = Math.min(limits.capacityNanos(), credit + (t - last));
        last = t;
    }
}
