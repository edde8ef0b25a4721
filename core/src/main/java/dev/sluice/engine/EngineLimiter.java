package dev.sluice.engine;

import dev.sluice.Clock;
import dev.sluice.Decision;
import dev.sluice.FullTablePolicy;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.table.FingerprintCache;
import dev.sluice.table.KeyHashing;
import dev.sluice.table.KeyTable;
import dev.sluice.table.MemoryFactory;
import dev.sluice.table.OffHeapMemory;
import dev.sluice.table.SipHasher;
import dev.sluice.table.SlotLifecycle;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the lock-free limiters share: keys to keywords (String keys through a {@link FingerprintCache} per kind of
 * key, single and two-part, of at most {@value FingerprintCache#MAX_ENTRIES} entries each), time, the one table that
 * holds every key (long, string and byte keys side by side, allocated and zeroed when the limiter is built, never on a
 * request), the full-table policy and close. Subclasses decide one request on one slot.
 */
abstract class EngineLimiter implements RateLimiter {

    /** {@link #decide} outcomes. */
    static final int DENY = 0;
    static final int ADMIT = 1;
    /** The slot changed hands while it was read: find the key again. */
    static final int RETRY = 2;
    /** Spins on a slot in hand-over before waiting on its stripe's monitor. */
    static final int SPINS_BEFORE_MONITOR = 64;
    /** A Decision's undo state when it holds nothing to undo (denied, decided by the full-table policy, or undone). */
    static final long NOTHING_TO_UNDO = -1L;

    final RateLimitConfig config;
    private final Clock clock;
    final TimeLine time;
    private final FullTablePolicy fullTablePolicy;
    private final MemoryFactory memory;
    private final LongAdder tableFull = new LongAdder();
    /**
     * The system property that, set to {@code false} when a limiter is built, builds it without
     * {@link FingerprintCache}s (every String key then runs the keyed hash): for measuring what the caches save.
     */
    static final String KEY_CACHE_PROPERTY = "sluice.keyCache";

    /** Set once by {@link #allocateTable}, cleared by {@link #close()}. */
    private volatile KeyTable keys;
    // The table's String fingerprints, single and two-part keys: written before the volatile write of the table in
    // allocateTable, so a call that reads the table sees them; cleared (plain) by close() so that the Strings they
    // hold go with it; a call that still reads one afterwards uses it with the table it holds, which is still valid.
    private FingerprintCache keyCache;
    private FingerprintCache pairCache;

    /**
     * Whether {@link #decide} may be tried on a slot before the key is looked up: it reads the state, then checks the
     * keyword, and writes nothing unless the slot is the key's (see {@link KeyTable#likelySlot}).
     */
    private final boolean decidesOnAnySlot;

    EngineLimiter(LimiterOptions options, boolean decidesOnAnySlot) {
        this.decidesOnAnySlot = decidesOnAnySlot;
        this.config = options.config;
        this.clock = options.clock;
        this.fullTablePolicy = options.fullTablePolicy;
        this.memory = MemoryFactory.of(options.memory);
        this.time = new TimeLine(clock, config.windowNanos(), config.alignmentNanos());
    }

    /**
     * Allocates and zeroes the table, as the last step of a subclass's constructor (once its {@link #lifecycle()} is
     * ready): every key the limiter will hold has its room before the first request, and an allocation failure is
     * thrown here, where the limiter is configured, never from a request.
     */
    final void allocateTable(int maxKeys, int ringWords) {
        if (!"false".equals(System.getProperty(KEY_CACHE_PROPERTY))) {
            keyCache = FingerprintCache.ofKeys(maxKeys);
            pairCache = FingerprintCache.ofPairs(maxKeys);
        }
        keys = new KeyTable(memory, true, maxKeys, ringWords, lifecycle(), 0);
    }

    /**
     * Decides one request on the slot at byte offset {@code slot} of {@code mem}: {@link #ADMIT}, {@link #DENY} or
     * {@link #RETRY}.
     */
    abstract int decide(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits, long t,
            Decision d);

    /** Gives back permits on a slot; false if the slot changed hands (find the key again). */
    abstract boolean giveBack(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits,
            long t);

    /**
     * Undoes on a slot the admission of {@code permits} that recorded {@code token} and left {@code after}; false if
     * the slot changed hands (find the key again).
     */
    abstract boolean takeBack(KeyTable table, OffHeapMemory mem, int slot, long keyword, long check, long permits,
            long token, long after);

    /** How the tables see this algorithm's state. */
    abstract SlotLifecycle lifecycle();

    @Override
    public final RateLimitConfig config() {
        return config;
    }

    @Override
    public final Clock clock() {
        return clock;
    }

    @Override
    public final boolean tryAcquire(long key, long permits) {
        return acquireLong(key, permits, true, 0, null);
    }

    @Override
    public final boolean tryAcquire(CharSequence key, long permits) {
        return acquireString(key, permits, true, 0, null);
    }

    @Override
    public final boolean tryAcquire(long key, long permits, long nowNanos) {
        return acquireLong(key, permits, false, nowNanos, null);
    }

    @Override
    public final boolean tryAcquire(long key, long permits, long nowNanos, Decision decision) {
        Objects.requireNonNull(decision, "decision must not be null").request(permits, nowNanos);
        return acquireLong(key, permits, false, nowNanos, decision);
    }

    @Override
    public final boolean tryAcquire(CharSequence key, long permits, long nowNanos) {
        return acquireString(key, permits, false, nowNanos, null);
    }

    @Override
    public final boolean tryAcquire(CharSequence key, long permits, long nowNanos, Decision decision) {
        Objects.requireNonNull(decision, "decision must not be null").request(permits, nowNanos);
        return acquireString(key, permits, false, nowNanos, decision);
    }

    @Override
    public final boolean tryAcquire(CharSequence first, CharSequence second, long permits, long nowNanos,
            Decision decision) {
        checkPermits(permits);
        KeyTable table = table();
        Objects.requireNonNull(first, "first key part must not be null");
        Objects.requireNonNull(second, "second key part must not be null");
        if (decision != null) {
            decision.request(permits, nowNanos);
        }
        long t = time.callerElapsed(nowNanos);
        FingerprintCache cache = pairCache;
        if (cache != null && first instanceof String && second instanceof String
                && FingerprintCache.cacheable((String) first) && FingerprintCache.cacheable((String) second)) {
            String a = (String) first;
            String b = (String) second;
            int hash = FingerprintCache.pairHash(a, b);
            int entry = cache.entryOf(hash);
            long version = cache.beginRead(entry);
            long keyword = cache.keyword(entry);
            long check = cache.check(entry);
            if (cache.held(entry, version, hash, a, b)) {
                return acquire(table, keyword, check, permits, t, true, decision);
            }
            SipHasher h = pairHash(table, a, b);
            cache.offer(a, b, KeyHashing.keyword(h), KeyHashing.check(h));
            return acquire(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, t, true, decision);
        }
        SipHasher h = pairHash(table, first, second);
        return acquire(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, t, true, decision);
    }

    @Override
    public final boolean tryAcquire(byte[] key, int offset, int length, long permits, long nowNanos,
            Decision decision) {
        checkPermits(permits);
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(key, "key must not be null").length);
        KeyTable table = table();
        SipHasher h = table.hashing().stringKey();
        h.putBytes(key, offset, length);
        h.finish();
        if (decision != null) {
            decision.request(permits, nowNanos);
        }
        return acquire(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, time.callerElapsed(nowNanos), true,
                decision);
    }

    @Override
    public final boolean tryAcquire(ByteBuffer key, long permits, long nowNanos, Decision decision) {
        checkPermits(permits);
        Objects.requireNonNull(key, "key must not be null");
        KeyTable table = table();
        SipHasher h = table.hashing().stringKey();
        h.putBytes(key, key.position(), key.limit());
        h.finish();
        if (decision != null) {
            decision.request(permits, nowNanos);
        }
        return acquire(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, time.callerElapsed(nowNanos), true,
                decision);
    }

    @Override
    public final void release(long key, long permits, long nowNanos) {
        checkPermits(permits);
        KeyTable table = table();
        giveBack(table, table.hashing().mixLong(key), 0, permits, time.callerElapsed(nowNanos));
    }

    @Override
    public final void release(CharSequence key, long permits, long nowNanos) {
        checkPermits(permits);
        KeyTable table = table();
        SipHasher h = stringHash(table, key);
        giveBack(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, time.callerElapsed(nowNanos));
    }

    @Override
    public final void release(CharSequence first, CharSequence second, long permits, long nowNanos) {
        checkPermits(permits);
        KeyTable table = table();
        SipHasher h = pairHash(table, first, second);
        giveBack(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, time.callerElapsed(nowNanos));
    }

    @Override
    public final void undo(long key, Decision admitted) {
        if (undoable(admitted)) {
            KeyTable table = table();
            takeBack(table, table.hashing().mixLong(key), 0, admitted);
        }
    }

    @Override
    public final void undo(CharSequence key, Decision admitted) {
        Objects.requireNonNull(key, "key must not be null");
        if (undoable(admitted)) {
            KeyTable table = table();
            SipHasher h = stringHash(table, key);
            takeBack(table, KeyHashing.keyword(h), KeyHashing.check(h), admitted);
        }
    }

    @Override
    public final void undo(CharSequence first, CharSequence second, Decision admitted) {
        KeyTable table = table();
        SipHasher h = pairHash(table, first, second);
        if (undoable(admitted)) {
            takeBack(table, KeyHashing.keyword(h), KeyHashing.check(h), admitted);
        }
    }

    /** Whether {@code admitted} holds an admission of this limiter not yet undone. */
    private static boolean undoable(Decision admitted) {
        Objects.requireNonNull(admitted, "admitted must not be null");
        return admitted.allowed() && admitted.permits() > 0 && admitted.undoState() != NOTHING_TO_UNDO;
    }

    /** Undoes {@code admitted} on the key's slot, if the key still has one; then marks it undone. */
    private void takeBack(KeyTable table, long keyword, long check, Decision admitted) {
        OffHeapMemory mem = table.memoryOfKey(keyword);
        for (int retries = 0;; retries++) {
            int slot = table.findSlot(mem, keyword, check);
            if (slot == KeyTable.NO_SLOT || takeBack(table, mem, slot, keyword, check, admitted.permits(),
                    admitted.undoToken(), admitted.undoState())) {
                admitted.undoWith(0, NOTHING_TO_UNDO);
                return;
            }
            awaitHandOver(table, keyword, retries);
        }
    }

    /** A string key's keyed hash, finished (see {@link KeyHashing} for the encoding). */
    private static SipHasher stringHash(KeyTable table, CharSequence key) {
        Objects.requireNonNull(key, "key must not be null");
        SipHasher h = table.hashing().stringKey();
        h.putUtf8(key);
        h.finish();
        return h;
    }

    /** A two-part key's hash, finished: the first part's length, then both parts, with no string joined. */
    private static SipHasher pairHash(KeyTable table, CharSequence first, CharSequence second) {
        Objects.requireNonNull(first, "first key part must not be null");
        Objects.requireNonNull(second, "second key part must not be null");
        SipHasher h = table.hashing().pairKey();
        h.putInt(first.length());
        h.putUtf8(first);
        h.putUtf8(second);
        h.finish();
        return h;
    }

    private boolean acquireLong(long key, long permits, boolean ownClock, long nowNanos, Decision d) {
        checkPermits(permits);
        KeyTable table = table();
        long keyword = table.hashing().mixLong(key);
        return acquire(table, keyword, 0, permits, elapsed(ownClock, nowNanos), !ownClock, d);
    }

    private boolean acquireString(CharSequence key, long permits, boolean ownClock, long nowNanos, Decision d) {
        checkPermits(permits);
        KeyTable table = table();
        FingerprintCache cache = keyCache;
        if (cache != null && key instanceof String && FingerprintCache.cacheable((String) key)) {
            // A key the cache holds skips the keyed hash; the entry's words are used only if held() confirms them.
            String s = (String) key;
            int hash = s.hashCode();
            int entry = cache.entryOf(hash);
            long version = cache.beginRead(entry);
            long keyword = cache.keyword(entry);
            long check = cache.check(entry);
            if (cache.held(entry, version, hash, s, null)) {
                return acquire(table, keyword, check, permits, elapsed(ownClock, nowNanos), !ownClock, d);
            }
            SipHasher h = stringHash(table, s);
            cache.offer(s, KeyHashing.keyword(h), KeyHashing.check(h));
            return acquire(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, elapsed(ownClock, nowNanos),
                    !ownClock, d);
        }
        SipHasher h = stringHash(table, key);
        return acquire(table, KeyHashing.keyword(h), KeyHashing.check(h), permits, elapsed(ownClock, nowNanos),
                !ownClock, d);
    }

    /**
     * The request's time, read from the clock only once the key is hashed: a clock read waits for the loads before
     * it, so a cold key's string is read first and the miss on its slot comes after the clock, where it overlaps the
     * caller's next work instead of the clock read (1M String keys, measured when it was made: jmh/ANALYSIS.md of
     * commit 281bf66).
     */
    private long elapsed(boolean ownClock, long nowNanos) {
        return ownClock ? time.elapsed(clock.nanoTime()) : time.callerElapsed(nowNanos);
    }

    /** Decides one request at elapsed time {@code t}, which is the caller's reading if {@code callerTime}. */
    private boolean acquire(KeyTable table, long keyword, long check, long permits, long t, boolean callerTime,
            Decision d) {
        // The key's stripe memory, looked up once: the probe and the decision both work on it.
        OffHeapMemory mem = table.memoryOfKey(keyword);
        if (decidesOnAnySlot) {
            // Most keys are in their home slot: deciding there first saves the probe's read of the keyword, which the
            // decision reads again anyway once it has read the state. Another key's slot is left untouched.
            int outcome = decide(table, mem, table.likelySlot(keyword, check), keyword, check, permits, t, d);
            if (outcome != RETRY) {
                return outcome == ADMIT;
            }
        }
        int retries = 0;
        for (;;) {
            int slot = table.findSlot(mem, keyword, check);
            if (slot == KeyTable.NO_SLOT) {
                long handle = table.findOrPut(keyword, check, t, callerTime ? reclaimTime(t) : t);
                if (handle == KeyTable.FULL) {
                    return tableFull(d);
                }
                slot = KeyTable.slotOf(handle);
            }
            int outcome = decide(table, mem, slot, keyword, check, permits, t, d);
            if (outcome != RETRY) {
                return outcome == ADMIT;
            }
            awaitHandOver(table, keyword, retries++);
        }
    }

    /**
     * When a new key may judge other keys idle: its own time, but never past the limiter's clock, so that a caller's
     * reading ahead of it (up to {@link RateLimitConfig#MAX_LEAD_NANOS}) cannot reclaim keys that are not idle yet.
     * A clock read on the new-key path only.
     */
    private long reclaimTime(long t) {
        return Math.min(t, time.elapsed(clock.nanoTime()));
    }

    private void giveBack(KeyTable table, long keyword, long check, long permits, long t) {
        OffHeapMemory mem = table.memoryOfKey(keyword);
        for (int retries = 0;; retries++) {
            int slot = table.findSlot(mem, keyword, check);
            if (slot == KeyTable.NO_SLOT || giveBack(table, mem, slot, keyword, check, permits, t)) {
                return;
            }
            awaitHandOver(table, keyword, retries);
        }
    }

    /**
     * One wait for a slot that is passing to another key under its stripe's monitor: a few stores, so a spin at
     * first; after {@value #SPINS_BEFORE_MONITOR} the monitor's holder has most likely lost its core, and waiting on
     * the monitor (which it holds to the end of the hand-over) parks this thread instead of burning the core it needs.
     */
    private static void awaitHandOver(KeyTable table, long keyword, int retries) {
        if (retries < SPINS_BEFORE_MONITOR) {
            Thread.onSpinWait();
        } else {
            table.awaitPuts(keyword);
        }
    }

    private boolean tableFull(Decision d) {
        tableFull.increment();
        boolean allowed = fullTablePolicy == FullTablePolicy.ALLOW;
        if (d != null) {
            // Nothing is known of an untracked key: the window is the honest hint for a retry.
            d.set(allowed, config.burst(), 0, allowed ? 0 : config.windowNanos(), config.windowNanos(), 0);
            d.undoWith(0, NOTHING_TO_UNDO); // no state took the permits
        }
        return allowed;
    }

    private static void checkPermits(long permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1, was " + permits);
        }
    }

    // The close guard of every call: the table is read once into a local and used from there, so a call either holds
    // a table it may use to the end (reachability keeps its memory) or meets null and throws.
    private KeyTable table() {
        // Volatile read: close() clears the field, so a call that starts after close() throws here.
        KeyTable t = keys;
        if (t == null) {
            throw closedError();
        }
        return t;
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("RateLimiter (" + config + ") is closed");
    }

    @Override
    public final long tableFullEvents() {
        return tableFull.sum();
    }

    @Override
    public final long liveKeys() {
        KeyTable t = keys;
        return t == null ? 0 : t.liveKeys();
    }

    /** Off-heap bytes held by this limiter's table (0 once closed). */
    @Override
    public final long offHeapBytes() {
        KeyTable t = keys;
        return t == null ? 0 : t.offHeapBytes();
    }

    @Override
    public final Optional<MemoryBackend> memoryBackend() {
        return Optional.of(memory.backend());
    }

    /**
     * Closes under traffic: drops the table and the String key caches (and with them the Strings they hold). A call
     * that read the table before this keeps it (and its memory) reachable in its own locals and completes normally; a
     * call that starts after it finds no table and throws {@link IllegalStateException}. The table's memory is
     * returned by a cleaner once no call holds it ({@link dev.sluice.OffHeap}).
     */
    @Override
    public final void close() {
        // Volatile write: a call whose read of the field comes after it sees null and throws.
        keys = null;
        keyCache = null;
        pairCache = null;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + config + "]";
    }
}
