package dev.sluice.reference;

import dev.sluice.Decision;

/**
 * One key's state. Every change happens under the object's monitor, time included: the time is read from the
 * {@link ElapsedTime} while the monitor is held, so the times one key sees never go back (subclasses rely on it: no
 * stored time or window index is ever later than the {@code t} they are given), and each key's decisions are
 * linearizable (they take effect in monitor order).
 */
abstract class KeyState {
    // Subclass fields are plain: only read and written under this object's monitor, which orders them.

    /**
     * Decides a request; {@code admission} names it for a later {@link #undo} ({@code > 0} when {@code decision} is
     * non-null, 0 when nobody can undo it).
     */
    final synchronized boolean acquire(ElapsedTime time, long now, long permits, long admission, Decision decision) {
        return decide(time.advance(now), permits, admission, decision);
    }

    final synchronized void release(ElapsedTime time, long now, long permits) {
        giveBack(time.advance(now), permits);
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
