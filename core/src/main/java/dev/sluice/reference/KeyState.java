package dev.sluice.reference;

import dev.sluice.Decision;

/**
 * One key's state. Every change happens under the object's monitor, so each key's decisions are linearizable (they
 * take effect in monitor order). The key keeps the latest time it has seen and decides a request given an earlier
 * time at that latest one: a key's time never goes back (subclasses rely on it: no stored time or window index is
 * ever later than the {@code t} they are given), and no other key's times move it.
 */
abstract class KeyState {
    // Fields are plain: only read and written under this object's monitor, which orders them.

    /** The latest elapsed time this key has seen. */
    private long latest;

    /**
     * Decides a request; {@code admission} names it for a later {@link #undo} ({@code > 0} when a decision records
     * it, 0 when nobody can undo it).
     */
    final synchronized boolean acquire(long t, long permits, long admission, Decision decision) {
        return decide(advance(t), permits, admission, decision);
    }

    final synchronized void release(long t, long permits) {
        giveBack(advance(t), permits);
    }

    private long advance(long t) {
        latest = Math.max(latest, t);
        return latest;
    }

    final synchronized void undo(long admission, long permits) {
        takeBack(admission, permits);
    }

    /**
     * Decides a request at elapsed time {@code t} (never less than the last one), named {@code admission} (0: never
     * undone); fills {@code d} if non-null.
     */
    abstract boolean decide(long t, long permits, long admission, Decision d);

    /** Gives back {@code permits} at elapsed time {@code t}: a credit, whoever took them. */
    abstract void giveBack(long t, long permits);

    /** Undoes exactly the admission named {@code admission} of {@code permits}, if it still counts; else nothing. */
    abstract void takeBack(long admission, long permits);
}
