package dev.sluice.table;

import java.util.function.LongConsumer;

/**
 * A fixed-capacity, striped, off-heap open-addressing table from a key to one state word (and, for the sliding log,
 * one ring of {@code ringWords} longs per key).
 *
 * <pre>
 * slot (long keys only):   [ keyword | state ]            16 bytes
 * slot (with check words): [ keyword | check | state ]    24 bytes: long, string and byte keys side by side
 * ring (sliding log):      [ ringWords x long ]           allocated one per key of capacity, never freed before close()
 * </pre>
 * A long key's keyword is {@link KeyHashing#mixLong}, a bijection, so it identifies the key exactly, and its check is
 * 0. A string key is identified by its 128-bit hash (keyword, check); its check is never 0 ({@link KeyHashing#check}),
 * so no string key can equal a long key. Keyword 0 marks an empty slot, which ends a probe chain; keyword 1 a
 * tombstone. The two long keys that mix to 0 or 1 live in two dedicated slots; a string key's keyword is never 0 or 1.
 * Slots are found by linear probing inside one stripe, in two bounded windows, then in a few overflow slots past the
 * probed ring (see {@link #FIRST_WINDOW}). The limiters use tables with check words (one table for every key kind,
 * allocated when the limiter is built); tables of long keys only remain for tests.
 *
 * <p>Capacity: a table is sized for {@code capacity} keys at 32 bytes a key: twice as many 16-byte slots, or 4/3 as
 * many 24-byte slots (a sliding log's long keys: 1.5 slots, 24 bytes, plus the ring), and {@value #OVERFLOW_SLOTS}
 * overflow slots a stripe (under 0.1% of a table of 1M keys). A stripe accepts live keys up to
 * 7/8 of its slots, so an uneven spread of keys over stripes never refuses a key below the capacity; the sliding log's
 * rings are the exception: exactly one ring per key of capacity (plus 5% slack when there is more than one stripe), and
 * no more live keys than rings. Free rings form a list threaded through their own first words, so the table keeps no
 * heap per key.
 *
 * <p>Reclaim, with no background thread: a new key takes over an idle key's slot on its own probe chain; when the
 * stripe is at its live-key limit it evicts an idle key elsewhere in the stripe (see {@link #evictOne}), leaving a
 * tombstone (keyword 1, state {@link #DEAD}) that later keys reuse; a tombstone followed by an empty slot ends no
 * chain and is emptied. A new key's fresh state is taken at the latest time the stripe reclaimed a key, so it is
 * greater than any state a reclaimed key had (see {@link SlotLifecycle}).
 * When no idle key can be found the table is full and the caller applies its full-table policy.
 *
 * <p>Concurrency. Finding an existing key is lock-free: it reads keywords with acquire and never writes. Putting a
 * new key (claiming an empty slot or a tombstone, or taking over an idle key's slot on the probe chain) is
 * serialised per stripe by a monitor, so two threads can never put one key twice, and the set of keys on a chain
 * changes only under it. A new key's state is written before its keyword is published (release), so no update can
 * be overwritten by it. Taking over an idle key: CAS its state to {@link #DEAD} (fails if the key was touched
 * meanwhile), judge it idle once more on the state the CAS froze (a sliding log's header can come back to an equal
 * value with other ring content, see {@link #markDead}), write the new key's check and keyword (release), then its
 * fresh state (volatile). An updater reads the
 * state (volatile), then checks the keyword: see {@link SlotLifecycle} for why its CAS can never land on another
 * key's state.
 */
public final class KeyTable {

    /**
     * Sign bit of the state of a slot that holds no key (passing to another key, or a tombstone): updaters that read
     * a negative state look the key up again. The other bits keep the last key's state, for the next fresh state.
     */
    public static final long DEAD = Long.MIN_VALUE;
    /** {@link #find} and {@link #findOrPut}: the key is absent. */
    public static final long ABSENT = -1L;
    /** {@link #findOrPut}: the key is absent and there is no room for it. */
    public static final long FULL = -2L;
    /** {@link #findSlot}: the key is absent. */
    public static final int NO_SLOT = -1;

    /**
     * A key lives within {@value #FIRST_WINDOW} slots of its first home or, when all of those hold live keys, within
     * {@value #SECOND_WINDOW} slots of its second (each capped at the stripe), or, when those too hold live keys
     * only, in one of the stripe's {@value #OVERFLOW_SLOTS} overflow slots: a lookup reads at most
     * {@value #MAX_PROBES} slots, whatever the keys. The first window is short, so that a run of keys forced onto one
     * first home stays short beside the second window, which reaches past it (KeyTableFloodTest: 2,000 such keys,
     * none refused).
     */
    public static final int FIRST_WINDOW = 64;
    /** See {@link #FIRST_WINDOW}. */
    public static final int SECOND_WINDOW = 256;
    /**
     * Slots per stripe, outside the probed ring, for the keys whose two windows hold live keys only. Linear probing
     * packs live keys in runs, so under churn near capacity both windows of a fresh key are all live now and then
     * (rarely: no refusal in 147 million puts held at capacity by churn); the overflow slots take those keys, and an
     * idle key there is taken over like any other.
     */
    public static final int OVERFLOW_SLOTS = 16;
    /** The most slots one lookup reads. */
    public static final int MAX_PROBES = FIRST_WINDOW + SECOND_WINDOW + OVERFLOW_SLOTS;
    /** How far a stripe at its live-key limit looks for an idle key that ends its cluster. */
    static final int EVICTION_SCAN = 64;
    /** How far tombstone clean-up walks through a cluster. */
    private static final int CLUSTER_WALK = 1024;
    private static final long EMPTY = 0;
    private static final long TOMBSTONE = 1;
    private static final int MAX_STRIPE_BYTES = 1 << 30;

    private final boolean stringKeys;
    private final int slotBytes;
    private final int stateOffset;
    private final int ringBytes;
    private final int stripeMask;
    private final int slotsPerStripe;
    private final int liveLimit;
    private final int firstWindow;
    private final int secondWindow;
    private final int ringsPerStripe;
    private final int ringsOffset;
    private final KeyHashing hashing;
    private final OffHeapMemory[] memory;
    private final Stripe[] stripes;
    private final SlotLifecycle lifecycle;
    /**
     * Test hook, null in use: run between the judgement that a key is idle and the CAS that marks it dead, so that a
     * test can make the key's state go round to the same value in between. Read under the stripe's monitor only.
     */
    LongConsumer beforeReclaimCas;
    /** Slots of the long keys whose keyword would be 0 or 1: after the overflow slots of stripe 0, their stripe. */
    private final int reservedSlot;
    /** Byte offset of a stripe's first overflow slot, right after its ring of probed slots. */
    private final int overflowStart;

    /** Per-stripe bookkeeping, guarded by the stripe's monitor; {@code live} is volatile for lock-free reads. */
    private static final class Stripe {
        volatile int live;
        int nonEmpty;
        int nextRing;
        /** First ring of the stripe's free list (-1: none); each free ring's word 0 holds the next one. */
        int freeRing = -1;
        /** Where the next sweep for an idle key to evict starts. */
        int hand;
        /** Latest time any key of this stripe was reclaimed at: a new key's fresh state is taken no earlier. */
        long reclaimedAt;
        /** The scratch of a put, used only under this stripe's monitor. */
        final Probe probe;

        Stripe(Probe probe) {
            this.probe = probe;
        }
    }

    /**
     * @param capacity  keys the table must hold
     * @param ringWords longs of ring per key (0 for one-word algorithms)
     * @param t         the time of creation, for the dedicated slots' fresh state
     */
    public KeyTable(MemoryFactory factory, boolean stringKeys, int capacity, int ringWords, SlotLifecycle lifecycle,
            long t) {
        this.stringKeys = stringKeys;
        this.lifecycle = lifecycle;
        this.slotBytes = stringKeys ? 24 : 16;
        this.stateOffset = slotBytes - 8;
        this.ringBytes = ringWords * 8;
        this.hashing = KeyHashing.draw();
        Geometry g = new Geometry(stringKeys, capacity, ringWords, lifecycle.maxRingsPerStripe());
        int stripeCount = g.stripeCount;
        this.stripeMask = stripeCount - 1;
        this.slotsPerStripe = g.slotsPerStripe;
        this.ringsPerStripe = g.ringsPerStripe;
        this.liveLimit = g.liveLimit;
        this.firstWindow = Math.min(FIRST_WINDOW, slotsPerStripe);
        this.secondWindow = Math.min(SECOND_WINDOW, slotsPerStripe);
        long slotArea = (long) (slotsPerStripe + OVERFLOW_SLOTS + 2) * slotBytes;
        long stripeBytes = g.stripeBytes;
        this.ringsOffset = (int) slotArea;
        this.memory = new OffHeapMemory[stripeCount];
        this.stripes = new Stripe[stripeCount];
        try {
            for (int i = 0; i < stripeCount; i++) {
                memory[i] = factory.allocate((int) stripeBytes);
                stripes[i] = new Stripe(new Probe());
            }
        } catch (OutOfMemoryError e) {
            free();
            throw e;
        }
        this.overflowStart = slotsPerStripe * slotBytes;
        this.reservedSlot = (slotsPerStripe + OVERFLOW_SLOTS) * slotBytes;
        // The two dedicated slots own the two spare rings of stripe 0; their keywords are never looked at.
        for (int r = 0; r < 2; r++) {
            memory[0].putLongRelease(reservedSlot + r * slotBytes + stateOffset,
                    lifecycle.freshState(ringsPerStripe + r, t, 0));
        }
    }

    /** One stripe while the rings fit in one, so that capacity is exact; else as few as the stripe size allows. */
    private static int ringStripeCount(int capacity, int ringWords, long maxRings) {
        long bytes = (long) capacity * (ringWords * 8L + 40);
        int stripes = 1;
        while ((bytes / stripes > MAX_STRIPE_BYTES / 2 || capacity / stripes >= maxRings / 2)
                && stripes < 1 << 16) {
            stripes <<= 1;
        }
        return stripes;
    }

    /**
     * The off-heap bytes a table of this shape allocates, computed before allocating anything: the same sizing the
     * constructor uses.
     *
     * @throws IllegalArgumentException if one stripe would exceed 1 GiB
     */
    public static long offHeapBytes(boolean stringKeys, int capacity, int ringWords, long maxRingsPerStripe) {
        Geometry g = new Geometry(stringKeys, capacity, ringWords, maxRingsPerStripe);
        return g.stripeBytes * g.stripeCount;
    }

    /** How a capacity is laid out in stripes, slots and rings. */
    private static final class Geometry {
        final int stripeCount;
        final int slotsPerStripe;
        final int ringsPerStripe;
        final int liveLimit;
        final long stripeBytes;

        Geometry(boolean stringKeys, int capacity, int ringWords, long maxRingsPerStripe) {
            stripeCount = ringWords > 0 ? ringStripeCount(capacity, ringWords, maxRingsPerStripe)
                    : Integer.highestOneBit(Math.max(1, Math.min(64, capacity / 4096)));
            int perStripe = (capacity + stripeCount - 1) / stripeCount;
            long slots;
            if (stringKeys) {
                slots = ((long) perStripe * 4 + 2) / 3;
            } else if (ringWords > 0) {
                slots = ((long) perStripe * 3 + 1) / 2; // the ring dominates a key's bytes: 1.5 slots are room enough
            } else {
                slots = (long) perStripe * 2;
            }
            slotsPerStripe = (int) Math.max(4, slots);
            int sevenEighths = slotsPerStripe - Math.max(1, slotsPerStripe / 8);
            if (ringWords > 0) {
                ringsPerStripe = Math.min(sevenEighths,
                        stripeCount == 1 ? perStripe : perStripe + perStripe / 20 + 8);
                liveLimit = ringsPerStripe;
            } else {
                ringsPerStripe = 0;
                liveLimit = sevenEighths;
            }
            int slotBytes = stringKeys ? 24 : 16;
            stripeBytes = (long) (slotsPerStripe + OVERFLOW_SLOTS + 2) * slotBytes
                    + (long) (ringsPerStripe + 2) * ringWords * 8L;
            if (stripeBytes > MAX_STRIPE_BYTES) {
                throw new IllegalArgumentException("maxKeys too large for this limit: " + stripeBytes
                        + " bytes per stripe, at most " + MAX_STRIPE_BYTES);
            }
        }
    }

    /** The seed of the table's long-key mix ({@link KeyHashing#longSeed()}). */
    public long seed() {
        return hashing.longSeed();
    }

    /** The table's key hashing, its secret keys drawn when the table was built. */
    public KeyHashing hashing() {
        return hashing;
    }

    public boolean stringKeys() {
        return stringKeys;
    }

    /** The slot of a key (a long key already mixed by {@link KeyHashing#mixLong}), or {@link #ABSENT}. */
    public long find(long keyword, long check) {
        int stripe = stripeOf(keyword);
        int slot = findSlot(memory[stripe], keyword, check);
        return slot == NO_SLOT ? ABSENT : handle(stripe, slot);
    }

    /** The memory of the stripe that holds a key's slot, wherever it is put. */
    public OffHeapMemory memoryOfKey(long keyword) {
        return memory[stripeOf(keyword)];
    }

    /**
     * {@link #find} given the key's {@link #memoryOfKey memory}: the slot's byte offset there, or {@link #NO_SLOT}.
     * The hot path: the caller keeps the memory and the slot, instead of unpacking a handle to look them up again.
     */
    public int findSlot(OffHeapMemory mem, long keyword, long check) {
        if (check == 0 && (keyword == EMPTY || keyword == TOMBSTONE)) {
            return reservedSlot + (int) keyword * slotBytes;
        }
        int slot = findFrom(mem, homeOf(keyword), firstWindow, keyword, check);
        if (slot == NO_SLOT) {
            slot = findFrom(mem, secondHomeOf(keyword), secondWindow, keyword, check);
        }
        return slot != NO_SLOT ? slot : findFrom(mem, slotsPerStripe, OVERFLOW_SLOTS, keyword, check);
    }

    /**
     * Where a key most likely is, read from nothing: its home slot (its reserved slot for the two reserved keywords),
     * as a byte offset of its {@link #memoryOfKey memory}. Only for a caller whose decision reads the state, then
     * checks the keyword with {@link #owns(OffHeapMemory, int, long, long)} and writes nothing when it is another
     * key's: such a caller may decide there first and look the key up with {@link #findSlot} only if that fails.
     */
    public int likelySlot(long keyword, long check) {
        if (check == 0 && (keyword == EMPTY || keyword == TOMBSTONE)) {
            return reservedSlot + (int) keyword * slotBytes;
        }
        return homeOf(keyword) * slotBytes;
    }

    /**
     * The key's slot in the window of one of its homes, or in the overflow slots (home {@code slotsPerStripe}: past
     * the ring, so {@link #next} never wraps there), or {@link #NO_SLOT}.
     */
    private int findFrom(OffHeapMemory mem, int home, int window, long keyword, long check) {
        int i = home;
        for (int probes = 0; probes < window; probes++) {
            int offset = i * slotBytes;
            // Acquire: pairs with the release store that published the keyword, so its check and state are visible.
            long k = mem.getLongAcquire(offset);
            if (k == EMPTY) {
                return NO_SLOT;
            }
            if (k == keyword && (!stringKeys || mem.getLongPlain(offset + 8) == check)) {
                return offset;
            }
            i = next(i);
        }
        return NO_SLOT;
    }

    /**
     * The slot of a key, putting it in if absent (see the class comment for where). Returns {@link #FULL} when there
     * is no room and no idle key to reclaim. Callers try {@link #find} first: this is the slow path.
     */
    public long findOrPut(long keyword, long check, long t) {
        return findOrPut(keyword, check, t, t);
    }

    /**
     * {@link #findOrPut(long, long, long)} for a key at time {@code t}, judging other keys idle at {@code reclaimAt}
     * (at most {@code t}): a caller's reading ahead of the clock must not make other keys look idle, nor move the
     * stripe's reclaim time, which every new key's fresh state starts from.
     */
    public long findOrPut(long keyword, long check, long t, long reclaimAt) {
        int stripeIndex = stripeOf(keyword);
        Stripe stripe = stripes[stripeIndex];
        OffHeapMemory mem = memory[stripeIndex];
        int first = homeOf(keyword);
        int second = secondHomeOf(keyword);
        synchronized (stripe) {
            for (;;) {
                Probe probe = stripe.probe;
                probe.scan(mem, first, firstWindow, keyword, check, stripeIndex, reclaimAt);
                // The windows in the order a lookup reads them; the first one with room is where a new key goes.
                probe.scanNext(mem, second, secondWindow, keyword, check, stripeIndex, reclaimAt);
                probe.scanNext(mem, slotsPerStripe, OVERFLOW_SLOTS, keyword, check, stripeIndex, reclaimAt);
                if (probe.found >= 0) {
                    return handle(stripeIndex, probe.found);
                }
                int reusable = probe.reusable;
                int end = probe.end;
                if (reusable >= 0 && mem.getLongPlain(reusable) != TOMBSTONE) {
                    if (takeOverIdle(stripe, mem, stripeIndex, reusable, keyword, check, reclaimAt)) {
                        return handle(stripeIndex, reusable);
                    }
                    continue; // the idle key was touched meanwhile: look again
                }
                if (reusable < 0 && end < 0) {
                    return FULL; // both windows and the overflow slots hold live keys only
                }
                boolean inRing = (reusable >= 0 ? reusable : end) < overflowStart;
                // The ring keeps one empty slot, so that every probe chain ends; the overflow slots are no chain.
                boolean noRoom = stripe.live >= liveLimit
                        || (reusable < 0 && inRing && stripe.nonEmpty >= slotsPerStripe - 1);
                if (noRoom) {
                    if (evictOne(stripe, mem, stripeIndex, end >= 0 ? end : reusable, reclaimAt)) {
                        continue; // the windows may have changed: look again, now with room
                    }
                    return FULL;
                }
                int target = reusable >= 0 ? reusable : end;
                long ring = -1;
                if (ringsPerStripe > 0) {
                    ring = stripe.freeRing >= 0 ? popFreeRing(stripe, mem) : stripe.nextRing++;
                }
                long previous = mem.getLongVolatile(target + stateOffset) & Long.MAX_VALUE;
                publishNew(mem, target, keyword, check,
                        lifecycle.freshState(ring, Math.max(t, stripe.reclaimedAt), previous));
                if (target == end && inRing) {
                    stripe.nonEmpty++;
                }
                stripe.live = stripe.live + 1;
                return handle(stripeIndex, target);
            }
        }
    }

    /**
     * One window's scan under the stripe's monitor: the key's slot, else the first tombstone or idle key before the
     * first empty slot, and that empty slot (byte offsets, -1 for none). Kept per stripe, so a put allocates nothing.
     */
    private final class Probe {
        int found;
        int reusable;
        int end;

        /** Scans the next window, for the key and, if the windows scanned so far have no room, for room. */
        void scanNext(OffHeapMemory mem, int home, int window, long keyword, long check, int stripeIndex, long t) {
            if (found >= 0) {
                return;
            }
            int reusableBefore = reusable;
            int endBefore = end;
            scan(mem, home, window, keyword, check, stripeIndex, t);
            if (found < 0 && (reusableBefore >= 0 || endBefore >= 0)) {
                reusable = reusableBefore;
                end = endBefore;
            }
        }

        void scan(OffHeapMemory mem, int home, int window, long keyword, long check, int stripeIndex, long t) {
            found = -1;
            reusable = -1;
            end = -1;
            int i = home;
            for (int probes = 0; probes < window; probes++) {
                int offset = i * slotBytes;
                // Plain is enough: keywords change only under this monitor, which the caller holds.
                long k = mem.getLongPlain(offset);
                if (k == EMPTY) {
                    end = offset;
                    return;
                }
                if (k == keyword && (!stringKeys || mem.getLongPlain(offset + 8) == check)) {
                    found = offset;
                    return;
                }
                if (reusable < 0 && (k == TOMBSTONE || idle(stripeIndex, offset, t))) {
                    reusable = offset;
                }
                i = next(i);
            }
        }
    }

    /**
     * Waits until no put is in progress in the key's stripe: enters and leaves its monitor, which a put (a hand-over of
     * a slot included) holds from start to end. For callers that met a slot in hand-over many times in a row.
     */
    public void awaitPuts(long keyword) {
        synchronized (stripes[stripeOf(keyword)]) {
            // Empty: entering is the wait.
        }
    }

    /** Whether a live slot's key is idle at {@code t}. Volatile read: the state changes outside the monitor. */
    private boolean idle(int stripeIndex, int offset, long t) {
        long state = memory[stripeIndex].getLongVolatile(offset + stateOffset);
        return state >= 0 && lifecycle.isIdle(this, handle(stripeIndex, offset), state, t);
    }

    /** Gives an idle key's slot (and ring) to a new key; false if the idle key was touched meanwhile. */
    private boolean takeOverIdle(Stripe stripe, OffHeapMemory mem, int stripeIndex, int offset, long keyword,
            long check, long t) {
        long old = markDead(mem, stripeIndex, offset, t);
        if (old < 0) {
            return false;
        }
        stripe.reclaimedAt = Math.max(stripe.reclaimedAt, t);
        publishOver(mem, offset, keyword, check, lifecycle.freshState(lifecycle.ringOf(old), stripe.reclaimedAt, old));
        return true;
    }

    /**
     * Turns an idle key into a tombstone and frees its ring: first one that ends its cluster within
     * {@value #EVICTION_SCAN} slots of {@code from} (its tombstone is emptied at once), else the next idle key after
     * the stripe's eviction hand, which sweeps the stripe like a clock so that repeated evictions cost O(1) each.
     */
    private boolean evictOne(Stripe stripe, OffHeapMemory mem, int stripeIndex, int from, long t) {
        int i = from < overflowStart ? Math.max(0, from) / slotBytes : 0;
        for (int probes = 0; probes < Math.min(EVICTION_SCAN, slotsPerStripe); probes++) {
            long k = mem.getLongPlain(i * slotBytes);
            if (k != EMPTY && k != TOMBSTONE && mem.getLongPlain(next(i) * slotBytes) == EMPTY
                    && evict(stripe, mem, stripeIndex, i * slotBytes, t)) {
                return true;
            }
            i = next(i);
        }
        // The hand sweeps the ring and the overflow slots, so that an idle key in either is found.
        int span = slotsPerStripe + OVERFLOW_SLOTS;
        i = stripe.hand;
        for (int probes = 0; probes < span; probes++) {
            int at = i;
            i = i + 1 == span ? 0 : i + 1;
            long k = mem.getLongPlain(at * slotBytes);
            if (k != EMPTY && k != TOMBSTONE && evict(stripe, mem, stripeIndex, at * slotBytes, t)) {
                stripe.hand = i;
                return true;
            }
        }
        return false;
    }

    /**
     * Marks an idle key's slot dead, under the stripe's monitor; returns the key's last state, or -1 if the key is not
     * idle or was touched meanwhile. The CAS compares the state word only, and a sliding log's header can read the same
     * again after exactly a multiple of 2^17 writes to its key (its version field wraps), with newer entries in its
     * ring. So idleness is judged once more after the CAS, on a ring that no writer can change any more (every writer
     * claims the ring by a CAS of the header, which now reads dead); a key found busy gets its state back. For a
     * one-word state the second judgement repeats the first: equal words are equal states.
     */
    private long markDead(OffHeapMemory mem, int stripeIndex, int offset, long t) {
        int at = offset + stateOffset;
        long handle = handle(stripeIndex, offset);
        long old = mem.getLongVolatile(at);
        if (old < 0 || !lifecycle.isIdle(this, handle, old, t)) {
            return -1;
        }
        if (beforeReclaimCas != null) {
            beforeReclaimCas.accept(handle);
        }
        // Volatile CAS to DEAD: fails if the key's state changed since its idleness was judged; updaters that read
        // DEAD look the key up again. Reading the value the last writer published (release), it also makes that
        // writer's ring entries visible to the judgement below.
        if (!mem.compareAndSetLong(at, old, old | DEAD)) {
            return -1;
        }
        if (!lifecycle.isIdle(this, handle, old, t)) {
            // Volatile: the key's updaters, which met DEAD and looked the key up again, find its state as it was.
            mem.putLongVolatile(at, old);
            return -1;
        }
        return old;
    }

    /** Takes the first ring of the stripe's free list; under the stripe's monitor. */
    private int popFreeRing(Stripe stripe, OffHeapMemory mem) {
        int ring = stripe.freeRing;
        stripe.freeRing = (int) mem.getLongPlain(ringWordOffset(ring, 0));
        return ring;
    }

    private boolean evict(Stripe stripe, OffHeapMemory mem, int stripeIndex, int offset, long t) {
        long old = markDead(mem, stripeIndex, offset, t);
        if (old < 0) {
            return false;
        }
        // Release: a finder that reads the tombstone skips the slot; its state already reads dead.
        mem.putLongRelease(offset, TOMBSTONE);
        long ring = lifecycle.ringOf(old);
        if (ring >= 0) {
            // Plain: the ring's key is dead (its state reads DEAD), so only this monitor's holders use its words.
            mem.putLongPlain(ringWordOffset(ring, 0), stripe.freeRing);
            stripe.freeRing = (int) ring;
        }
        stripe.live = stripe.live - 1;
        stripe.reclaimedAt = Math.max(stripe.reclaimedAt, t);
        if (offset < overflowStart) {
            clearTombstones(stripe, mem, offset); // the overflow slots stay a prefix: their tombstones stay
        }
        return true;
    }

    /**
     * Empties the tombstones of the cluster around {@code offset} that no probe chain needs: a tombstone can go when
     * every key after it in its cluster has its home after it, so no lookup passes through it to reach a key. A
     * finder that then stops early at the new empty slot reports the key absent, and the caller looks again under
     * this monitor, where the chains are exact.
     */
    private void clearTombstones(Stripe stripe, OffHeapMemory mem, int offset) {
        int start = offset / slotBytes;
        for (int walked = 0; walked < CLUSTER_WALK; walked++) {
            int previous = start == 0 ? slotsPerStripe - 1 : start - 1;
            if (mem.getLongPlain(previous * slotBytes) == EMPTY) {
                break;
            }
            start = previous;
        }
        int i = start;
        for (int walked = 0; walked < CLUSTER_WALK && mem.getLongPlain(i * slotBytes) != EMPTY; walked++) {
            if (mem.getLongPlain(i * slotBytes) == TOMBSTONE && noChainPassesThrough(mem, i)) {
                // Release: no key's probe chain runs through this slot any more (checked above).
                mem.putLongRelease(i * slotBytes, EMPTY);
                stripe.nonEmpty--;
            }
            i = next(i);
        }
    }

    /**
     * Whether no key after slot {@code p} in its cluster has its probe chain run through {@code p}: a key's chain runs
     * from the home it was put from ({@link #homeUsed}) to its slot, shorter than that home's window.
     */
    private boolean noChainPassesThrough(OffHeapMemory mem, int p) {
        int j = next(p);
        for (int walked = 1; walked < secondWindow; walked++) {
            long k = mem.getLongPlain(j * slotBytes);
            if (k == EMPTY) {
                return true;
            }
            if (k != TOMBSTONE) {
                int home = homeUsed(k, j);
                if (Math.floorMod(p - home, slotsPerStripe) < Math.floorMod(j - home, slotsPerStripe)) {
                    return false;
                }
            }
            j = next(j);
        }
        return true; // keys a second window or more after p cannot reach back to it
    }

    /**
     * The home a key at slot {@code j} was put from. A key goes to its second home's window only when every slot of
     * the first home's window holds a live key, so a key that sits inside its first home's window came from there.
     */
    private int homeUsed(long keyword, int j) {
        int first = homeOf(keyword);
        return Math.floorMod(j - first, slotsPerStripe) < firstWindow ? first : secondHomeOf(keyword);
    }

    /**
     * Writes a new key into a slot no updater can touch: an empty slot or a tombstone, whose state is 0 or dead.
     * The check, then the state, then the keyword: once the keyword is visible, an updater's CAS must find the fresh
     * state, never have it overwritten afterwards.
     */
    private void publishNew(OffHeapMemory mem, int offset, long keyword, long check, long fresh) {
        if (stringKeys) {
            // Before the state: an updater of the slot's previous key that reads the fresh state (volatile) then sees
            // this check too, so a new key whose keyword equals that key's cannot pass its owns() on a stale check.
            mem.putLongPlain(offset + 8, check);
        }
        // Volatile: a stale updater of the slot's previous key, holding an older state, sees this one and fails.
        mem.putLongVolatile(offset + stateOffset, fresh);
        // Release: an updater that reads this keyword with acquire also sees the state and check written before it.
        mem.putLongRelease(offset, keyword);
    }

    /**
     * Hands a slot whose state the caller has just CASed to {@link #DEAD} to a new key: updaters of either key that
     * read the dead state look the key up again, so the fresh state, written last, can be overwritten by no one.
     */
    private void publishOver(OffHeapMemory mem, int offset, long keyword, long check, long fresh) {
        if (stringKeys) {
            mem.putLongPlain(offset + 8, check);
        }
        // Release: an updater that reads this keyword with acquire also sees the check written before it.
        mem.putLongRelease(offset, keyword);
        // Volatile: an updater that reads this state sees the new keyword, so it knows the slot changed hands.
        mem.putLongVolatile(offset + stateOffset, fresh);
    }

    /** Whether the slot still belongs to the key; call after reading the state, to validate what was read. */
    public boolean owns(long handle, long keyword, long check) {
        return owns(memory[stripeIndex(handle)], offset(handle), keyword, check);
    }

    /** {@link #owns(long, long, long)} given the slot's memory and byte offset, for callers that hold them. */
    public boolean owns(OffHeapMemory mem, int slot, long keyword, long check) {
        if (check == 0 && (keyword == EMPTY || keyword == TOMBSTONE)) {
            return true;
        }
        // Plain reads are ordered after the caller's volatile read of the state (acquire semantics).
        return mem.getLongPlain(slot) == keyword && (!stringKeys || mem.getLongPlain(slot + 8) == check);
    }

    /** The state word of a slot, volatile. Negative means dead: look the key up again. */
    public long state(long handle) {
        return memory[stripeIndex(handle)].getLongVolatile(offset(handle) + stateOffset);
    }

    /** Volatile CAS of a slot's state word: the linearization point of every admission. */
    public boolean casState(long handle, long expected, long value) {
        return memory[stripeIndex(handle)].compareAndSetLong(offset(handle) + stateOffset, expected, value);
    }

    /** Release store of a slot's state word, for a writer that holds the key's claim (sliding log). */
    public void putStateRelease(long handle, long value) {
        memory[stripeIndex(handle)].putLongRelease(offset(handle) + stateOffset, value);
    }

    /** Byte offset of the state word of the slot at byte offset {@code slot} of its memory. */
    public int stateOffset(int slot) {
        return slot + stateOffset;
    }

    /** The byte offset of a slot in {@link #memoryOf} the slot. */
    public static int slotOf(long handle) {
        return offset(handle);
    }

    /** The memory that holds a slot and its ring. */
    public OffHeapMemory memoryOf(long handle) {
        return memory[stripeIndex(handle)];
    }

    /** Byte offset of word {@code index} of ring {@code ring} in {@link #memoryOf} the slot that owns it. */
    public int ringWordOffset(long ring, long index) {
        return ringsOffset + (int) ring * ringBytes + (int) index * 8;
    }

    /** Keys that hold a slot (idle keys not yet reclaimed included, the two dedicated slots not counted). */
    public long liveKeys() {
        long sum = 0;
        for (Stripe s : stripes) {
            sum += s.live;
        }
        return sum;
    }

    /** Off-heap bytes held by the table. */
    public long offHeapBytes() {
        long sum = 0;
        for (OffHeapMemory m : memory) {
            sum += m == null ? 0 : m.sizeBytes();
        }
        return sum;
    }

    /**
     * Frees every stripe at once: only where no thread can still be inside the table (a call in flight would touch
     * freed memory). A limiter closing under traffic drops the table instead; see {@link NativeMemoryLedger}.
     */
    public void free() {
        for (int i = 0; i < memory.length; i++) {
            if (memory[i] != null) {
                memory[i].free();
                memory[i] = null;
            }
        }
    }

    private int next(int i) {
        return i + 1 == slotsPerStripe ? 0 : i + 1;
    }

    private int stripeOf(long keyword) {
        return (int) (keyword >>> 48) & stripeMask;
    }

    private int homeOf(long keyword) {
        // Lemire's multiply-shift maps 32 hash bits onto [0, slotsPerStripe) without a division.
        return (int) (((keyword & 0xFFFF_FFFFL) * slotsPerStripe) >>> 32);
    }

    /**
     * The second home: the high half of an odd multiple of the keyword, which depends on all its bits, so keys that
     * share a first home (equal low 32 bits) spread over the stripe.
     */
    private int secondHomeOf(long keyword) {
        return (int) ((((keyword * 0x9E37_79B9_7F4A_7C15L) >>> 32) * slotsPerStripe) >>> 32);
    }

    private static long handle(int stripe, int offset) {
        return ((long) stripe << 32) | offset;
    }

    private static int stripeIndex(long handle) {
        return (int) (handle >>> 32);
    }

    private static int offset(long handle) {
        return (int) handle;
    }
}
