package dev.sluice.reference;

import dev.sluice.Clock;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The classic rate limiter: a {@link ConcurrentHashMap} from key to a small state object per key, every decision
 * made under that object's monitor. All five algorithms. It is the oracle of the differential tests and the
 * baseline of the benchmarks, so it is kept plain and shares no code with the lock-free engine.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Thread-safe; each key's decisions are linearizable (they take effect in the order its monitor is taken).
 *       Blocking, not lock-free: threads on one key wait for each other; threads on different keys do not.</li>
 *   <li>Keys: a {@code long} key is a {@link Long}, a {@code CharSequence} key its {@code toString()}, so
 *       {@code 5L} and {@code "5"} are different keys and two sequences with the same characters are one key.</li>
 *   <li>Memory: unbounded, one map entry per key ever seen until {@link #close()}; the table is never full
 *       ({@link #tableFullEvents()} is always 0).</li>
 *   <li>Time: elapsed time is the reading minus an origin (the constructor's clock reading rounded down to a multiple
 *       of the window, shifted by the config's alignment), clamped to {@code [0, RateLimitConfig.HORIZON_NANOS]}
 *       with no overflow. Readings compare
 *       by wrapping difference, so a clock that wraps past {@code Long.MAX_VALUE} keeps counting. A reading earlier
 *       than the latest one its key has seen counts as that latest one: a clock that steps back is no time passing
 *       for that key and never grants permits; other keys are not affected. A reading more than
 *       {@link RateLimitConfig#MAX_LEAD_NANOS} ahead of the clock throws {@link IllegalArgumentException} and changes
 *       nothing.</li>
 *   <li>Arithmetic is exact: counts and credits fit in a {@code long} by the config's ranges; the sliding window
 *       counter falls back to {@link java.math.BigInteger} where a product would not.</li>
 *   <li>Undo: each admission decided with a {@link Decision} is named (a limiter-wide sequence number) and its key
 *       keeps what an exact undo needs per name (see each state class); an undo acts once per name.</li>
 *   <li>After {@link #close()} (idempotent) every {@code tryAcquire} and {@code release} throws
 *       {@link IllegalStateException}; {@code close} must not race with calls in flight.</li>
 * </ul>
 */
public final class ReferenceRateLimiter implements RateLimiter {

    private final RateLimitConfig config;
    private final Clock clock;
    private final Limits limits;
    private final ElapsedTime time;
    private final ConcurrentHashMap<Object, KeyState> states = new ConcurrentHashMap<>();
    /** Names admissions that a Decision may undo: unique per limiter, so one never undoes another's. */
    private final AtomicLong admissions = new AtomicLong();
    /** Volatile: a close on one thread is seen by calls that start after it on any other. */
    private volatile boolean closed;

    public ReferenceRateLimiter(RateLimitConfig config, Clock clock) {
        this.config = Objects.requireNonNull(config, "config must not be null");
        this.clock = Objects.requireNonNull(clock, "clock must not be null");
        this.limits = Limits.of(config);
        this.time = new ElapsedTime(clock, config.windowNanos(), config.alignmentNanos());
    }

    @Override
    public RateLimitConfig config() {
        return config;
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public boolean tryAcquire(long key, long permits, long nowNanos) {
        check(permits);
        return acquire(Long.valueOf(key), nowNanos, permits, 0, null);
    }

    @Override
    public boolean tryAcquire(CharSequence key, long permits, long nowNanos) {
        check(permits);
        return acquire(stringKey(key), nowNanos, permits, 0, null);
    }

    @Override
    public boolean tryAcquire(long key, long permits, long nowNanos, Decision decision) {
        check(permits);
        Objects.requireNonNull(decision, "decision must not be null");
        return decide(Long.valueOf(key), permits, nowNanos, decision);
    }

    @Override
    public boolean tryAcquire(CharSequence key, long permits, long nowNanos, Decision decision) {
        check(permits);
        Objects.requireNonNull(decision, "decision must not be null");
        return decide(stringKey(key), permits, nowNanos, decision);
    }

    /** The key is the String those bytes spell in UTF-8, see {@link RateLimiter}; the bytes are copied. */
    @Override
    public boolean tryAcquire(byte[] key, int offset, int length, long permits, long nowNanos, Decision decision) {
        check(permits);
        Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(key, "key must not be null").length);
        return decide(WireKey.of(key, offset, length), permits, nowNanos, decision);
    }

    @Override
    public boolean tryAcquire(ByteBuffer key, long permits, long nowNanos, Decision decision) {
        ByteBuffer range = Objects.requireNonNull(key, "key must not be null").duplicate();
        byte[] bytes = new byte[range.remaining()];
        range.get(bytes);
        return tryAcquire(bytes, 0, bytes.length, permits, nowNanos, decision);
    }

    @Override
    public void release(long key, long permits, long nowNanos) {
        check(permits);
        releaseKey(Long.valueOf(key), permits, nowNanos);
    }

    @Override
    public void release(CharSequence key, long permits, long nowNanos) {
        check(permits);
        releaseKey(stringKey(key), permits, nowNanos);
    }

    @Override
    public void undo(long key, Decision admitted) {
        takeBack(Long.valueOf(key), admitted);
    }

    @Override
    public void undo(CharSequence key, Decision admitted) {
        takeBack(stringKey(key), admitted);
    }

    @Override
    public void undo(CharSequence first, CharSequence second, Decision admitted) {
        takeBack(RateLimiter.pairKey(first, second), admitted);
    }

    /** Decides, naming the admission in {@code decision} (if any) so that it can be undone. */
    private boolean decide(Object key, long permits, long nowNanos, Decision decision) {
        if (decision == null) {
            return acquire(key, nowNanos, permits, 0, null);
        }
        decision.request(permits, nowNanos);
        long admission = admissions.incrementAndGet();
        boolean admitted = acquire(key, nowNanos, permits, admission, decision);
        decision.undoWith(admitted ? admission : 0, 0);
        return admitted;
    }

    /** The time first, so that a rejected reading changes nothing. */
    private boolean acquire(Object key, long nowNanos, long permits, long admission, Decision decision) {
        long t = time.of(nowNanos);
        return state(key).acquire(t, permits, admission, decision);
    }

    /** Undoes the admission {@code admitted} names, once: afterwards it names none. */
    private void takeBack(Object key, Decision admitted) {
        ensureOpen();
        long admission = Objects.requireNonNull(admitted, "admitted must not be null").undoToken();
        if (!admitted.allowed() || admission <= 0) {
            return;
        }
        KeyState state = states.get(key);
        if (state != null) {
            state.undo(admission, admitted.permits());
        }
        admitted.undoWith(0, 0);
    }

    /** Named apart from the public overloads: a String key is a CharSequence, and would call itself. */
    private void releaseKey(Object key, long permits, long nowNanos) {
        long t = time.of(nowNanos);
        KeyState state = states.get(key);
        if (state != null) { // an absent key has nothing to give back
            state.release(t, permits);
        }
    }

    @Override
    public long tableFullEvents() {
        return 0;
    }

    @Override
    public long liveKeys() {
        return states.size();
    }

    @Override
    public void close() {
        closed = true;
        states.clear();
    }

    @Override
    public String toString() {
        return "ReferenceRateLimiter[" + config + "]";
    }

    private void check(long permits) {
        ensureOpen();
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be >= 1, was " + permits);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("ReferenceRateLimiter (" + config + ") is closed");
        }
    }

    private static String stringKey(CharSequence key) {
        return Objects.requireNonNull(key, "key must not be null").toString();
    }

    private KeyState state(Object key) {
        KeyState state = states.get(key);
        return state != null ? state : states.computeIfAbsent(key, k -> newState());
    }

    private KeyState newState() {
        switch (config.algorithm()) {
            case TOKEN_BUCKET:
                return new BucketState(limits, false);
            case LEAKY_BUCKET:
                return new BucketState(limits, true);
            case FIXED_WINDOW:
                return new FixedWindowState(limits);
            case SLIDING_WINDOW_COUNTER:
                return new SlidingCounterState(limits);
            case SLIDING_WINDOW_LOG:
                return new SlidingLogState(limits);
            default:
                throw new AssertionError(config.algorithm());
        }
    }
}
