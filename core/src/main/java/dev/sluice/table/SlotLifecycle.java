package dev.sluice.table;

/**
 * What a {@link KeyTable} needs to know about the state word of its slots, supplied by the algorithm that owns them.
 *
 * <p>The table relies on one property to let an idle key's slot pass to another key without an ABA hazard:
 * {@code freshState(ring, t, previous)} differs from every state the slot's previous key ever had, where
 * {@code previous} is that key's last state (0 for a never-used slot). One-word algorithms whose states only grow
 * get this from {@code freshState > every idle state}; the buckets, whose state a give-back lowers, from a 2-bit
 * generation tag that each new key of the slot advances. In the words of the simple case:
 * {@code freshState} is strictly greater than every state for which {@code isIdle(state, t)} holds, and a
 * key's state never falls below the fresh state it started from. A thread still holding an old key's state value
 * then can never see that value again in the slot, so its compare-and-set fails.
 */
public interface SlotLifecycle {

    /** Whether the slot holds no information at time {@code t}: its key may be dropped. Called under the stripe lock. */
    boolean isIdle(KeyTable table, long handle, long state, long t);

    /** The state of a key first seen at {@code t}, owning ring {@code ring} (ignored by one-word algorithms). */
    long freshState(long ring, long t, long previous);

    /** The ring a state refers to, so that a slot passed to another key keeps it; -1 for one-word algorithms. */
    long ringOf(long state);

    /** How many rings one stripe may number (the state's ring field bounds it); unbounded for one-word algorithms. */
    default long maxRingsPerStripe() {
        return Long.MAX_VALUE;
    }
}
