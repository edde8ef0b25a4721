package dev.sluice.table;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A fixed-capacity, striped, off-heap open-addressing table from a key to one state word (and, for the sliding log,
 * one ring of {@code ringWords} longs per key).
 *
 * <pre>
 * slot (long keys):   [ keyword | state ]            16 bytes
 * slot (string keys): [ keyword | check | state ]    24 bytes
 * ring (sliding log): [ ringWords x long ]           allocated one per key of capacity, never freed before close()
 * </pre>
 * A long key's keyword is {@link KeyHashing#mixLong}, a bijection, so it identifies the key exactly; the one key that
 * mixes to 0 lives in a dedicated slot. A string key is identified by its 128-bit fingerprint (keyword, check).
 * Keyword 0 marks an empty slot, which ends a probe chain. Slots are found by linear probing inside one stripe.
 *
 * <p>Capacity: each stripe holds {@code capacity / stripes} keys (rounded up) in twice as many 16-byte slots, or in
 * 4/3 as many 24-byte slots, so that a key costs at most 32 bytes at full capacity.
 *
 * <p>Concurrency. Finding an existing key is lock-free: it reads keywords with acquire and never writes. Putting a
 * new key (claiming an empty slot, or taking over an idle key's slot on the probe chain) is serialised per stripe by
 * a monitor, so two threads can never put one key twice, and the set of keys on a chain changes only under it. A
 * slot never becomes empty again, so probe chains never break. Taking over a slot: CAS its state to {@link #DEAD}
 * (fails if the old key was touched meanwhile), write the new key's check and keyword (release), then its fresh
 * state (volatile). An updater reads the state (volatile), then checks the keyword: see {@link SlotLifecycle} for
 * why its CAS can never land on another key's state.
 */
public final class KeyTable {

    /** State of a slot that is passing to another key: updaters that read it look the key up again. */
    public static final long DEAD = Long.MIN_VALUE;
    /** {@link #find} and {@link #findOrPut}: the key is absent. */
    public static final long ABSENT = -1L;
    /** {@link #findOrPut}: the key is absent and there is no room for it. */
    public static final long FULL = -2L;

    private static final int MAX_STRIPE_BYTES = 1 << 30;

    private final boolean stringKeys;
    private final int slotBytes;
    private final int stateOffset;
    private final int ringBytes;
    private final int stripeMask;
    private final int slotsPerStripe;
    private final int capacityPerStripe;
    private final int ringsOffset;
    private final long seed;
    private final OffHeapMemory[] memory;
    private final Stripe[] stripes;
    private final SlotLifecycle lifecycle;
    /** The slot of the one long key whose keyword is 0: last slot of stripe 0's slot area. */
    private final long zeroKeyHandle;

    /** Per-stripe bookkeeping, guarded by the stripe's monitor; {@code used} is volatile for lock-free reads. */
    private static final class Stripe {
        volatile int used;
        int nextRing;
    }

    /**
     * @param capacity  keys the table must hold
     * @param ringWords longs of ring per key (0 for one-word algorithms)
     * @param t         the time of creation, for the dedicated zero-key slot's fresh state
     */
    public KeyTable(MemoryFactory factory, boolean stringKeys, int capacity, int ringWords, SlotLifecycle lifecycle,
            long t) {
        this.stringKeys = stringKeys;
        this.lifecycle = lifecycle;
        this.slotBytes = stringKeys ? 24 : 16;
        this.stateOffset = slotBytes - 8;
        this.ringBytes = ringWords * 8;
        this.seed = ThreadLocalRandom.current().nextLong();
        int stripeCount = stripeCount(capacity);
        this.stripeMask = stripeCount - 1;
        this.capacityPerStripe = (capacity + stripeCount - 1) / stripeCount;
        long slots = stringKeys ? ((long) capacityPerStripe * 4 + 2) / 3 : (long) capacityPerStripe * 2;
        this.slotsPerStripe = (int) Math.max(2, slots);
        int extraRings = 1;
        long slotArea = (long) (slotsPerStripe + 1) * slotBytes;
        long stripeBytes = slotArea + (long) (capacityPerStripe + extraRings) * ringBytes;
        if (stripeBytes > MAX_STRIPE_BYTES) {
            throw new IllegalArgumentException("maxKeys too large for this limit: " + stripeBytes
                    + " bytes per stripe, at most " + MAX_STRIPE_BYTES);
        }
        this.ringsOffset = (int) slotArea;
        this.memory = new OffHeapMemory[stripeCount];
        this.stripes = new Stripe[stripeCount];
        try {
            for (int i = 0; i < stripeCount; i++) {
                memory[i] = factory.allocate((int) stripeBytes);
                stripes[i] = new Stripe();
            }
        } catch (OutOfMemoryError e) {
            free();
            throw e;
        }
        this.zeroKeyHandle = handle(0, slotsPerStripe * slotBytes);
        // The zero key's slot owns the spare ring of stripe 0; its keyword stays 0 and is never looked at.
        memory[0].putLongRelease(slotsPerStripe * slotBytes + stateOffset, lifecycle.freshState(capacityPerStripe, t));
    }

    private static int stripeCount(int capacity) {
        int wanted = Math.max(1, Math.min(64, capacity / 4096));
        return Integer.highestOneBit(wanted);
    }

    /** The table's hashing seed, drawn at random for each table. */
    public long seed() {
        return seed;
    }

    public boolean stringKeys() {
        return stringKeys;
    }

    /** The slot of a long key, already mixed ({@link KeyHashing#mixLong}); the dedicated slot when it is 0. */
    public long find(long keyword, long check) {
        if (keyword == 0 && !stringKeys) {
            return zeroKeyHandle;
        }
        int stripe = stripeOf(keyword);
        OffHeapMemory mem = memory[stripe];
        int i = homeOf(keyword);
        for (int probes = 0; probes < slotsPerStripe; probes++) {
            int offset = i * slotBytes;
            // Acquire: pairs with the release store that published the keyword, so its check and state are visible.
            long k = mem.getLongAcquire(offset);
            if (k == 0) {
                return ABSENT;
            }
            if (k == keyword && (!stringKeys || mem.getLongPlain(offset + 8) == check)) {
                return handle(stripe, offset);
            }
            i = i + 1 == slotsPerStripe ? 0 : i + 1;
        }
        return ABSENT;
    }

    /**
     * The slot of a key, putting it in if absent: into the first idle slot of its probe chain, else into the empty slot
     * that ends the chain while the stripe has room. Returns {@link #FULL} when neither is possible.
     */
    public long findOrPut(long keyword, long check, long t) {
        long found = find(keyword, check);
        if (found != ABSENT) {
            return found;
        }
        int stripeIndex = stripeOf(keyword);
        Stripe stripe = stripes[stripeIndex];
        OffHeapMemory mem = memory[stripeIndex];
        synchronized (stripe) {
            for (;;) {
                int idle = -1;
                int empty = -1;
                int i = homeOf(keyword);
                for (int probes = 0; probes < slotsPerStripe; probes++) {
                    int offset = i * slotBytes;
                    // Plain is enough: keywords change only under this monitor, which we hold.
                    long k = mem.getLongPlain(offset);
                    if (k == 0) {
                        empty = offset;
                        break;
                    }
                    if (k == keyword && (!stringKeys || mem.getLongPlain(offset + 8) == check)) {
                        return handle(stripeIndex, offset);
                    }
                    if (idle < 0) {
                        // Volatile: the state changes outside the monitor; the CAS below re-checks it.
                        long state = mem.getLongVolatile(offset + stateOffset);
                        if (state != DEAD && lifecycle.isIdle(this, handle(stripeIndex, offset), state, t)) {
                            idle = offset;
                        }
                    }
                    i = i + 1 == slotsPerStripe ? 0 : i + 1;
                }
                if (idle >= 0) {
                    long old = mem.getLongVolatile(idle + stateOffset);
                    if (old == DEAD || !lifecycle.isIdle(this, handle(stripeIndex, idle), old, t)
                            || !mem.compareAndSetLong(idle + stateOffset, old, DEAD)) {
                        continue; // the idle key was touched meanwhile: look again
                    }
                    publish(mem, idle, keyword, check, lifecycle.freshState(lifecycle.ringOf(old), t));
                    return handle(stripeIndex, idle);
                }
                if (empty < 0 || stripe.used >= capacityPerStripe) {
                    return FULL;
                }
                int ring = stripe.nextRing++;
                publish(mem, empty, keyword, check, lifecycle.freshState(ring, t));
                stripe.used = stripe.used + 1;
                return handle(stripeIndex, empty);
            }
        }
    }

    private void publish(OffHeapMemory mem, int offset, long keyword, long check, long fresh) {
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
        if (handle == zeroKeyHandle && !stringKeys) {
            return true;
        }
        OffHeapMemory mem = memory[stripeIndex(handle)];
        int offset = offset(handle);
        // Plain reads are ordered after the caller's volatile read of the state (acquire semantics).
        return mem.getLongPlain(offset) == keyword && (!stringKeys || mem.getLongPlain(offset + 8) == check);
    }

    /** The state word of a slot, volatile. */
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

    /** The memory that holds a slot and its ring. */
    public OffHeapMemory memoryOf(long handle) {
        return memory[stripeIndex(handle)];
    }

    /** Byte offset of word {@code index} of ring {@code ring} in {@link #memoryOf} the slot that owns it. */
    public int ringWordOffset(long ring, long index) {
        return ringsOffset + (int) ring * ringBytes + (int) index * 8;
    }

    /** Keys that hold a slot (idle keys not yet reclaimed included, the zero key not counted). */
    public long usedSlots() {
        long sum = 0;
        for (Stripe s : stripes) {
            sum += s.used;
        }
        return sum;
    }

    /** Keys the table holds at full capacity. */
    public long capacity() {
        return (long) capacityPerStripe * stripes.length;
    }

    /** Off-heap bytes held by the table. */
    public long offHeapBytes() {
        long sum = 0;
        for (OffHeapMemory m : memory) {
            sum += m == null ? 0 : m.sizeBytes();
        }
        return sum;
    }

    /** Frees every stripe. Not thread-safe with calls in flight: the owning limiter guards it. */
    public void free() {
        for (int i = 0; i < memory.length; i++) {
            if (memory[i] != null) {
                memory[i].free();
                memory[i] = null;
            }
        }
    }

    private int stripeOf(long keyword) {
        return (int) (keyword >>> 48) & stripeMask;
    }

    private int homeOf(long keyword) {
        // Lemire's multiply-shift maps 32 hash bits onto [0, slotsPerStripe) without a division.
        return (int) (((keyword & 0xFFFF_FFFFL) * slotsPerStripe) >>> 32);
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
