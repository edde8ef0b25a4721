package dev.sluice;

import java.util.Optional;

/**
 * Decides, per key, whether a request for some permits may pass now. One instance enforces one
 * {@link RateLimitConfig} for any number of keys; every key has its own state.
 *
 * <p>Keys: a {@code long} key and a {@code CharSequence} key are different keys, even if they print alike.
 * Permits: {@code permits <= 0} throws {@link IllegalArgumentException}; more permits than the limit (or burst) are
 * never admitted. Time: the methods without {@code nowNanos} read the limiter's clock once; the others take the time
 * from the caller, on the clock's time line, so that one clock read can serve several limits or a trace can be
 * replayed. A time earlier than one already seen never grants extra permits.
 *
 * <p>Implementations are thread-safe. After {@link #close()} every method throws {@link IllegalStateException}.
 */
public interface RateLimiter extends AutoCloseable {

    /** A lock-free, off-heap limiter on {@link Clock#system()} with default options. */
    static RateLimiter create(RateLimitConfig config) {
        return builder(config).build();
    }

    /** A lock-free, off-heap limiter with default options; see {@link #builder(RateLimitConfig)} for the others. */
    static RateLimiter create(RateLimitConfig config, Clock clock) {
        return builder(config).clock(clock).build();
    }

    /** A builder for a lock-free, off-heap limiter (capacity, full-table policy, memory backend). */
    static RateLimiterBuilder builder(RateLimitConfig config) {
        return new RateLimiterBuilder(config);
    }

    /** The limit this limiter enforces. */
    RateLimitConfig config();

    /** The clock the methods without {@code nowNanos} read. */
    Clock clock();

    default boolean tryAcquire(long key) {
        return tryAcquire(key, 1L);
    }

    default boolean tryAcquire(long key, long permits) {
        return tryAcquire(key, permits, clock().nanoTime());
    }

    boolean tryAcquire(long key, long permits, long nowNanos);

    default boolean tryAcquire(CharSequence key) {
        return tryAcquire(key, 1L);
    }

    default boolean tryAcquire(CharSequence key, long permits) {
        return tryAcquire(key, permits, clock().nanoTime());
    }

    boolean tryAcquire(CharSequence key, long permits, long nowNanos);

    /** As {@link #tryAcquire(long, long, long)}, and fills {@code decision} with the whole answer. */
    boolean tryAcquire(long key, long permits, long nowNanos, Decision decision);

    /** As {@link #tryAcquire(CharSequence, long, long)}, and fills {@code decision} with the whole answer. */
    boolean tryAcquire(CharSequence key, long permits, long nowNanos, Decision decision);

    /**
     * Decides for a key made of two parts (such as a user and an API) without joining them: {@code (a, b)} and
     * {@code (c, d)} are the same key only if both parts are equal. {@code decision} may be null. The default joins
     * the parts into one string key ({@link #pairKey}); the lock-free limiter hashes the parts in place.
     */
    default boolean tryAcquire(CharSequence first, CharSequence second, long permits, long nowNanos,
            Decision decision) {
        String key = pairKey(first, second);
        return decision == null ? tryAcquire(key, permits, nowNanos) : tryAcquire(key, permits, nowNanos, decision);
    }

    /** As {@link #release(CharSequence, long, long)} for a two-part key. */
    default void release(CharSequence first, CharSequence second, long permits, long nowNanos) {
        release(pairKey(first, second), permits, nowNanos);
    }

    /** One string key for a two-part key, unambiguous: the first part's length, a colon, then both parts. */
    static String pairKey(CharSequence first, CharSequence second) {
        java.util.Objects.requireNonNull(first, "first key part must not be null");
        java.util.Objects.requireNonNull(second, "second key part must not be null");
        return first.length() + ":" + first + second;
    }

    /**
     * Gives back {@code permits} that this key was granted at or before {@code nowNanos} and did not use. Never makes
     * the key richer than a fresh one. A credit, not an undo: it does not know which admission it gives back, so when
     * other requests landed on the key in between (across a window edge, after a refill) it may give back the later
     * window's or the refill's permits. To roll back one admission exactly (a composite limit whose other part
     * denied), use {@link #undo(long, Decision)}.
     */
    void release(long key, long permits, long nowNanos);

    /** As {@link #release(long, long, long)} for a {@code CharSequence} key. */
    void release(CharSequence key, long permits, long nowNanos);

    /**
     * Decides for a key held as bytes (a header value from the wire), with no String made. The key is the same key
     * as the {@link CharSequence} those bytes decode to in UTF-8: {@code tryAcquire("alice")} and
     * {@code tryAcquire("alice".getBytes(UTF_8), 0, 5, ...)} share one state. {@code decision} may be null. The
     * default decodes the bytes into a String; the lock-free limiter hashes them in place, with no allocation.
     */
    default boolean tryAcquire(byte[] key, int offset, int length, long permits, long nowNanos, Decision decision) {
        java.util.Objects.checkFromIndexSize(offset, length, java.util.Objects.requireNonNull(key, "key must not be null").length);
        String k = new String(key, offset, length, java.nio.charset.StandardCharsets.UTF_8);
        return decision == null ? tryAcquire(k, permits, nowNanos) : tryAcquire(k, permits, nowNanos, decision);
    }

    /**
     * As {@link #tryAcquire(byte[], int, int, long, long, Decision)} for the bytes from {@code key}'s position to its
     * limit (a heap or direct buffer); the buffer's position, limit and mark are left unchanged.
     */
    default boolean tryAcquire(java.nio.ByteBuffer key, long permits, long nowNanos, Decision decision) {
        java.nio.ByteBuffer b = java.util.Objects.requireNonNull(key, "key must not be null").duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return tryAcquire(bytes, 0, bytes.length, permits, nowNanos, decision);
    }

    /**
     * Undoes exactly the admission that filled {@code admitted} (an admitted decision of this limiter, for this
     * key): it gives back only what that admission took, never a later window's permits, a refill or another
     * request's log entry. The window algorithms give it back while its window still counts (the sliding counter
     * also from the previous window); the sliding log removes its entries while they are in the window; the buckets
     * restore the state before it if nothing has changed the key since (else give back nothing, see
     * {@code TokenBucket}). Does nothing for a denied decision or one decided by the full-table policy. The decision
     * is marked undone: a second undo of it does nothing (an undo of a copy made before the first is the caller's
     * error). Needs no time and reads no clock. The default gives the permits back with
     * {@link #release(long, long, long)} at the decision's time.
     */
    default void undo(long key, Decision admitted) {
        if (java.util.Objects.requireNonNull(admitted, "admitted must not be null").allowed() && admitted.permits() > 0) {
            release(key, admitted.permits(), admitted.nowNanos());
            admitted.request(0, admitted.nowNanos());
        }
    }

    /** As {@link #undo(long, Decision)} for a {@code CharSequence} key. */
    default void undo(CharSequence key, Decision admitted) {
        if (java.util.Objects.requireNonNull(admitted, "admitted must not be null").allowed() && admitted.permits() > 0) {
            release(key, admitted.permits(), admitted.nowNanos());
            admitted.request(0, admitted.nowNanos());
        }
    }

    /** As {@link #undo(long, Decision)} for a two-part key. */
    default void undo(CharSequence first, CharSequence second, Decision admitted) {
        if (java.util.Objects.requireNonNull(admitted, "admitted must not be null").allowed() && admitted.permits() > 0) {
            release(first, second, admitted.permits(), admitted.nowNanos());
            admitted.request(0, admitted.nowNanos());
        }
    }

    /** How many requests met a full table (and were then decided by the {@link FullTablePolicy}). */
    long tableFullEvents();

    /** How many keys hold state now (idle keys not yet reclaimed included). */
    long liveKeys();

    /** Off-heap bytes this limiter's tables hold now; 0 for a limiter that keeps its state elsewhere. */
    default long offHeapBytes() {
        return 0;
    }

    /**
     * Closes the limiter; idempotent. Safe while calls are in flight: a call racing with it either completes
     * normally or throws {@link IllegalStateException}, and every call that starts after it throws. The off-heap
     * memory is returned once no call can still be inside it, after a garbage collection (see {@link OffHeap}).
     */
    @Override
    void close();

    /**
     * The memory backend holding this limiter's state ({@link MemoryBackend#AUTO} resolved to the one chosen), or
     * empty for a limiter whose state is not in this process's off-heap tables (the reference, a Redis limiter).
     */
    default Optional<MemoryBackend> memoryBackend() {
        return Optional.empty();
    }
}
