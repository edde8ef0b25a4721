package dev.sluice.redis;

import dev.sluice.Algorithm;
import dev.sluice.Clock;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.engine.Human;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * A {@link RateLimiter} whose state lives in Redis, so that every gateway sharing the Redis (and the key prefix and
 * namespace) enforces one limit per key together.
 *
 * <p><b>Guarantees.</b> Each decision is one Lua script run by EVALSHA (EVAL when Redis answers NOSCRIPT, after a
 * SCRIPT FLUSH, a restart or a failover): one round trip that reads the key, decides, writes and sets an expiry so
 * that idle keys vanish by themselves. Redis runs a script atomically, so decisions on a key are linearizable in
 * Redis's order, with no read-compute-CAS from the JVM and no retry. The semantics are those of the local engine
 * ({@link RateLimiter#create}) for every {@link Algorithm}, on Redis's own clock ({@code TIME}, microseconds), so
 * gateway clocks may disagree. Fixed and sliding-counter windows are aligned to multiples of the window since 1970
 * on that clock.
 *
 * <p><b>Time.</b> The {@code nowNanos} argument of the methods that take it is ignored (Redis time decides),
 * except to age local leases. The window must be a whole number of microseconds; for SLIDING_WINDOW_COUNTER
 * {@code limit * window-in-us} must stay below 2^53 (so that its comparison is exact in Lua); both are checked by
 * {@link Builder#build()}.
 *
 * <p><b>Failures.</b> A well-formed request never throws: if Redis does not answer within the timeout, or answers
 * with an error, the {@link FailurePolicy} decides and {@link #failures()} counts it. A timed-out script may still
 * run later in Redis and count its permits. Recovery is Lettuce's reconnect: the next answer in time decides again.
 * Use {@link #recommendedClientOptions()} so that commands fail at once while disconnected instead of queueing.
 *
 * <p><b>Leasing</b> (optional, {@link Builder#leasing}): a request that goes to Redis asks for up to {@code batch}
 * permits; the surplus is kept in this JVM and spent locally with no round trip until used up or older than the
 * hold time. Redis counts leased permits when granted, so this never admits more than Redis granted, but it can
 * move permits in time: with {@code N} limiter instances leasing on one key, the permits admitted in any interval
 * are at most those Redis alone would have admitted in it plus {@code N * (batch - 1)} carried over from before
 * (each instance keeps one lease per key, of at most {@code batch - 1} unspent permits, none older than the hold
 * time; a lease replaced by a concurrent request's is drained, so only a request already inside it may still take
 * from it).
 *
 * <p><b>Memo of denials</b> (on by default, {@link Builder#denyMemo}): when Redis denies {@code n} permits of a key
 * with a retry-after {@code R}, the limiter remembers it, and until {@code R} has passed since it read its clock just
 * before sending, requests for that key of {@code n} or more permits are denied here, with no round trip (remaining
 * 0, retry-after and reset counted down from Redis's answer). Redis decided after the send, and other requests only
 * consume, so Redis would have denied them too: the memo never denies what Redis would admit, except after a give
 * back it cannot see. A {@code release} or {@code undo} on this limiter silences every denial of the key's memo slot
 * sent before it; a give back on another instance is seen here only once the memo's time is over, at most {@code R}
 * later; a forward step of Redis's clock ends the true denial early by the step, again by at most {@code R}. A
 * backward step of Redis's clock only makes the true denial longer. Failure-policy denials are never remembered.
 *
 * <p><b>Coalescing</b> (optional, {@link Builder#coalesce}): while a script call for a key is in flight, later
 * requests of this limiter for that key wait, and the next call decides up to {@code maxBatch} of them in one script
 * run, in queue order. Each is decided exactly as a call of its own reaching Redis at that point would be: on the
 * state the requests before it left, at Redis's clock when the script reaches it (or at its own caller time), with
 * its own remaining, retry-after and reset. So nothing is over-admitted, on one instance or many; a waiting request
 * is decided up to one round trip later than it would have been alone, and answers within the timeout counted from
 * its call. A failed or timed-out batch call gives each of its requests the failure policy; a request whose caller
 * gave up before its batch was sent is not sent. The memo of denials works as without coalescing; leasing is
 * exclusive with it. Decisions per second on one key then grow with the number of waiting requests instead of
 * stopping at one script run per round trip.
 *
 * <p>Thread-safe; the methods block at most for the timeout. Decisions made locally from a lease report the lease's
 * remaining permits and no reset time. Not supported with leasing: LEAKY_BUCKET (its delays space each request).
 */
public final class RedisRateLimiter implements RateLimiter {

    private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final long EXACT_LUA = 1L << 53;
    /** Slots of the memo of denials unless the builder says otherwise. */
    public static final int DEFAULT_MEMO_SLOTS = 1024;
    private static final int MAX_MEMO_SLOTS = 1 << 20;
    /** The most requests one coalesced script run decides. */
    public static final int MAX_COALESCE_BATCH = 4096;

    private final RateLimitConfig config;
    private final Algorithm algorithm;
    private final Clock clock;
    private final StatefulConnection<String, String> connection;
    private final boolean ownsConnection;
    private final RedisScriptingAsyncCommands<String, String> commands;
    private final LuaScript script;
    private final String keyBase;
    private final String[] params;
    private final long timeoutNanos;
    private final FailurePolicy failurePolicy;
    private final boolean callerTime;
    private final long leaseBatch;
    private final long leaseHoldNanos;
    private final ConcurrentHashMap<String, Lease> leases = new ConcurrentHashMap<>();
    private final long capacity;
    private final long emission;
    private final long windowNanos;
    private final LongAdder failures = new LongAdder();
    private final LongAdder scriptLoads = new LongAdder();
    private final LongAdder roundTrips = new LongAdder();
    private final LongAdder leaseHits = new LongAdder();
    private final LongAdder memoHits = new LongAdder();
    private final DenyMemo memo;
    private final long memoSlack;
    private final Coalescer coalescer;
    private final LuaScript batchScript;
    private final LongAdder coalesced = new LongAdder();
    // Volatile: a close() on one thread is seen by the next call on any other.
    private volatile boolean closed;

    private RedisRateLimiter(Builder b, StatefulConnection<String, String> connection,
            RedisScriptingAsyncCommands<String, String> commands, boolean owns) {
        this.config = b.config;
        this.algorithm = config.algorithm();
        this.clock = b.clock;
        this.connection = connection;
        this.ownsConnection = owns;
        this.commands = commands;
        this.script = LuaScript.of(algorithm);
        this.keyBase = b.keyPrefix + (b.namespace != null ? b.namespace : defaultNamespace(config));
        this.timeoutNanos = b.timeout.toNanos();
        this.failurePolicy = b.failurePolicy;
        this.callerTime = b.callerTime;
        this.leaseBatch = b.leaseBatch;
        this.leaseHoldNanos = b.leaseHold.toNanos();
        this.memo = b.memoSlots > 0 ? new DenyMemo(b.memoSlots) : null;
        // Redis TIME is in whole microseconds: the time a script decides at may read up to 1 us before the send.
        this.memoSlack = callerTime ? 0 : 1000;
        this.capacity = config.burst();
        this.windowNanos = config.windowNanos();
        this.emission = RateLimitConfig.emissionIntervalNanos(config.limit(), windowNanos);
        long windowMicros = windowNanos / 1000;
        if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET) {
            params = new String[] {Long.toString(emission / 1000), Long.toString(emission % 1000),
                Long.toString(capacity)};
        } else {
            params = new String[] {Long.toString(windowMicros), Long.toString(config.limit())};
        }
        this.batchScript = b.coalesceBatch > 0 ? LuaScript.batchOf(script) : null;
        this.coalescer = b.coalesceBatch > 0 ? new Coalescer(b.coalesceBatch, replyLength(algorithm), this::sendBatch)
                : null;
        preload(script);
        if (batchScript != null) {
            preload(batchScript);
        }
    }

    /**
     * A builder on a connection the caller owns (and closes); it may be shared with other limiters. A connection to
     * the master a Sentinel names ({@code redis-sentinel://...} URIs) is such a connection too.
     */
    public static Builder builder(RateLimitConfig config, StatefulRedisConnection<String, String> connection) {
        Objects.requireNonNull(connection, "connection must not be null");
        return new Builder(config, connection, connection.async(), null);
    }

    /**
     * A builder on a Redis Cluster connection the caller owns (and closes). Every key of one decision carries one
     * hash tag, so each script runs on the master of one slot; Lettuce routes it there and follows MOVED and ASK.
     */
    public static Builder builder(RateLimitConfig config, StatefulRedisClusterConnection<String, String> connection) {
        Objects.requireNonNull(connection, "connection must not be null");
        return new Builder(config, connection, connection.async(), null);
    }

    /** A builder that opens its own connection from {@code client} and closes it in {@link #close()}. */
    public static Builder builder(RateLimitConfig config, RedisClient client) {
        return new Builder(config, null, null, Objects.requireNonNull(client, "client must not be null"));
    }

    /**
     * Client options for a limiter's client: commands fail at once while disconnected (so the failure policy
     * answers immediately instead of after the timeout, and nothing queues up during an outage), reconnect on.
     */
    public static ClientOptions recommendedClientOptions() {
        return ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build();
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
        return decide(DenyMemo.LONG, key, null, null, permits, nowNanos, null);
    }

    @Override
    public boolean tryAcquire(CharSequence key, long permits, long nowNanos) {
        return decide(DenyMemo.STRING, 0, stringKey(key), null, permits, nowNanos, null);
    }

    @Override
    public boolean tryAcquire(long key, long permits, long nowNanos, Decision decision) {
        return decide(DenyMemo.LONG, key, null, null, permits, nowNanos,
                Objects.requireNonNull(decision, "decision must not be null"));
    }

    @Override
    public boolean tryAcquire(CharSequence key, long permits, long nowNanos, Decision decision) {
        return decide(DenyMemo.STRING, 0, stringKey(key), null, permits, nowNanos,
                Objects.requireNonNull(decision, "decision must not be null"));
    }

    /** The first part is the Redis Cluster hash tag: every limit of one caller lands in one slot. */
    @Override
    public boolean tryAcquire(CharSequence first, CharSequence second, long permits, long nowNanos,
            Decision decision) {
        return decide(DenyMemo.PAIR, 0, firstKey(first), secondKey(second), permits, nowNanos, decision);
    }

    @Override
    public void release(long key, long permits, long nowNanos) {
        giveBack(DenyMemo.LONG, key, null, null, permits, nowNanos);
    }

    @Override
    public void release(CharSequence key, long permits, long nowNanos) {
        giveBack(DenyMemo.STRING, 0, stringKey(key), null, permits, nowNanos);
    }

    @Override
    public void release(CharSequence first, CharSequence second, long permits, long nowNanos) {
        giveBack(DenyMemo.PAIR, 0, firstKey(first), secondKey(second), permits, nowNanos);
    }

    /** As {@link #tryAcquire(long, long)}, without blocking; completes within the timeout, never exceptionally. */
    public CompletionStage<Boolean> tryAcquireAsync(long key, long permits) {
        return decideAsync(DenyMemo.LONG, key, null, null, permits, clock.nanoTime()).thenApply(Decision::allowed);
    }

    /** As {@link #tryAcquire(CharSequence, long)}, without blocking; completes within the timeout, never exceptionally. */
    public CompletionStage<Boolean> tryAcquireAsync(CharSequence key, long permits) {
        return decideAsync(DenyMemo.STRING, 0, stringKey(key), null, permits, clock.nanoTime())
                .thenApply(Decision::allowed);
    }

    /** The whole answer for a {@code long} key, without blocking; a new {@link Decision} per call. */
    public CompletionStage<Decision> decideAsync(long key, long permits) {
        return decideAsync(DenyMemo.LONG, key, null, null, permits, clock.nanoTime());
    }

    /** The whole answer for a {@code CharSequence} key, without blocking; a new {@link Decision} per call. */
    public CompletionStage<Decision> decideAsync(CharSequence key, long permits) {
        return decideAsync(DenyMemo.STRING, 0, stringKey(key), null, permits, clock.nanoTime());
    }

    /** The whole answer for a two-part key (see {@link #tryAcquire(CharSequence, CharSequence, long, long, Decision)}). */
    public CompletionStage<Decision> decideAsync(CharSequence first, CharSequence second, long permits) {
        return decideAsync(DenyMemo.PAIR, 0, firstKey(first), secondKey(second), permits, clock.nanoTime());
    }

    /** Decisions made by the {@link FailurePolicy} because Redis did not answer in time or answered with an error. */
    public long failures() {
        return failures.sum();
    }

    /** Times Redis answered NOSCRIPT and the script was sent whole (after a flush, restart or failover). */
    public long scriptLoads() {
        return scriptLoads.sum();
    }

    /** Script calls sent to Redis. */
    public long roundTrips() {
        return roundTrips.sum();
    }

    /** Requests decided together with others in one script run ({@link Builder#coalesce}). */
    public long coalesced() {
        return coalesced.sum();
    }

    /** Keys with a coalesced script call in flight or requests waiting for one; 0 without coalescing. */
    int coalescingKeys() {
        return coalescer != null ? coalescer.keys() : 0;
    }

    /** Requests admitted from a local lease, with no round trip. */
    public long leaseHits() {
        return leaseHits.sum();
    }

    /** Requests denied from the local memo of denials, with no round trip. */
    public long memoHits() {
        return memoHits.sum();
    }

    /** Redis keeps no table here: always 0. */
    @Override
    public long tableFullEvents() {
        return 0;
    }

    /** Keys with a local lease in this JVM; Redis's own keys are not counted (they expire there by themselves). */
    @Override
    public long liveKeys() {
        return leases.size();
    }

    /** Closes the connection if this limiter opened it; unspent leases are dropped. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        leases.clear();
        if (ownsConnection) {
            connection.close();
        }
    }

    /**
     * One decision for the key {@code (kind, number, first, second)}: from a lease, from the memo of denials, or by
     * a script run. Before the memo is consulted nothing is allocated; the key's Redis name is made only after.
     */
    private boolean decide(byte kind, long number, CharSequence first, CharSequence second, long permits,
            long nowNanos, Decision decision) {
        checkOpen();
        checkPermits(permits);
        String body = null;
        Decision d = decision;
        if (leaseBatch > 0) {
            body = body(kind, number, first, second);
            d = d != null ? d : new Decision();
            if (fromLease(body, permits, nowNanos, d)) {
                return true;
            }
        }
        int slot = memo != null ? memo.slot(kind, number, first, second) : 0;
        if (memo != null && memo.denies(slot, kind, number, first, second, permits, memoNow(nowNanos), d)) {
            memoHits.increment();
            return false;
        }
        if (body == null) {
            body = body(kind, number, first, second);
        }
        d = d != null ? d : new Decision();
        long stamp = memo != null ? memo.stamp(slot) : 0;
        long sentAt = memo != null ? memoNow(nowNanos) : 0;
        CompletableFuture<long[]> reply = submit(body, permits, nowNanos);
        boolean allowed;
        try {
            allowed = interpret(reply.get(timeoutNanos, TimeUnit.NANOSECONDS), body, permits, nowNanos, d);
        } catch (TimeoutException e) {
            reply.cancel(false); // a request still waiting to be coalesced is then never sent
            return fail(d, permits, nowNanos);
        } catch (ExecutionException e) {
            return fail(d, permits, nowNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(d, permits, nowNanos);
        }
        if (!allowed && memo != null) {
            memo.remember(slot, stamp, kind, number, first, second, permits, sentAt, memoSlack, d);
        }
        return allowed;
    }

    private CompletionStage<Decision> decideAsync(byte kind, long number, CharSequence first, CharSequence second,
            long permits, long nowNanos) {
        checkOpen();
        checkPermits(permits);
        String body = body(kind, number, first, second);
        Decision d = new Decision();
        if (fromLease(body, permits, nowNanos, d)) {
            return CompletableFuture.completedFuture(d);
        }
        int slot = memo != null ? memo.slot(kind, number, first, second) : 0;
        if (memo != null && memo.denies(slot, kind, number, first, second, permits, memoNow(nowNanos), d)) {
            memoHits.increment();
            return CompletableFuture.completedFuture(d);
        }
        // The caller may change its CharSequence after this returns: the memo keeps the key as it is now.
        String a = first == null ? null : first.toString();
        String b = second == null ? null : second.toString();
        long stamp = memo != null ? memo.stamp(slot) : 0;
        long sentAt = memo != null ? memoNow(nowNanos) : 0;
        return submit(body, permits, nowNanos)
                .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
                .handle((reply, error) -> {
                    if (error != null) {
                        fail(d, permits, nowNanos);
                    } else if (!interpret(reply, body, permits, nowNanos, d) && memo != null) {
                        memo.remember(slot, stamp, kind, number, a, b, permits, sentAt, memoSlack, d);
                    }
                    return d;
                });
    }

    private void giveBack(byte kind, long number, CharSequence first, CharSequence second, long permits,
            long nowNanos) {
        checkOpen();
        checkPermits(permits);
        if (memo != null) {
            memo.forget(memo.slot(kind, number, first, second)); // before the send: no denial sent earlier answers
        }
        String body = body(kind, number, first, second);
        try {
            run(body, "r", permits, nowNanos).get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            failures.increment(); // a lost release only errs on the safe side: the permits stay taken
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failures.increment();
        }
    }

    /**
     * The reply to one acquisition: coalesced with the other requests for the key when coalescing is on and the
     * key's queue has room, else a script call of its own.
     */
    private CompletableFuture<long[]> submit(String body, long permits, long nowNanos) {
        if (coalescer != null) {
            Coalescer.Request request = new Coalescer.Request(permits, nowNanos);
            if (coalescer.submit(body, request)) {
                return request.reply;
            }
        }
        return run(body, "a", permits, nowNanos);
    }

    /**
     * One script call for a coalesced batch of one key. It times out as a request does, so that the key's next
     * batch is not held up by a call Redis never answers.
     */
    private CompletableFuture<long[]> sendBatch(String body, Coalescer.Request[] batch, int size) {
        if (size == 1) {
            return run(body, "a", batch[0].permits, batch[0].nowNanos).orTimeout(timeoutNanos, TimeUnit.NANOSECONDS);
        }
        String[] args = new String[1 + 2 * size + params.length];
        args[0] = Integer.toString(size);
        for (int i = 0; i < size; i++) {
            args[1 + 2 * i] = scriptTime(batch[i].nowNanos);
            args[2 + 2 * i] = Long.toString(clamp(batch[i].permits));
        }
        System.arraycopy(params, 0, args, 1 + 2 * size, params.length);
        coalesced.add(size);
        return call(batchScript, keys(body), args).orTimeout(timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** One script call; EVAL with the whole script when Redis has lost it. Never throws. */
    private CompletableFuture<long[]> run(String body, String op, long permits, long nowNanos) {
        long n = clamp(permits);
        long most = leaseBatch > n && op.equals("a") ? leaseBatch : n;
        String[] args = new String[4 + params.length];
        args[0] = scriptTime(nowNanos);
        args[1] = op;
        args[2] = Long.toString(n);
        args[3] = Long.toString(most);
        System.arraycopy(params, 0, args, 4, params.length);
        return call(script, keys(body), args);
    }

    private String[] keys(String body) {
        return algorithm == Algorithm.SLIDING_WINDOW_LOG
                ? new String[] {keyBase + '|' + body, keyBase + '#' + body}
                : new String[] {keyBase + '|' + body};
    }

    /** More permits than the capacity are denied by the script; clamping keeps its arithmetic exact. */
    private long clamp(long permits) {
        return Math.min(permits, capacity + 1);
    }

    /** The scripts' time argument: the caller's time in us when they take it, else empty (Redis TIME). */
    private String scriptTime(long nowNanos) {
        return callerTime ? Long.toString(Math.max(0, nowNanos / 1000)) : "";
    }

    private CompletableFuture<long[]> call(LuaScript lua, String[] keys, String[] args) {
        roundTrips.increment();
        try {
            CompletionStage<List<Object>> first = commands.evalsha(lua.sha(), ScriptOutputType.MULTI, keys, args);
            return first.exceptionallyCompose(error -> {
                if (unwrap(error) instanceof RedisNoScriptException) {
                    scriptLoads.increment();
                    return commands.<List<Object>>eval(lua.body(), ScriptOutputType.MULTI, keys, args);
                }
                return CompletableFuture.failedFuture(error);
            }).thenApply(RedisRateLimiter::longs).toCompletableFuture();
        } catch (RuntimeException e) {
            // Lettuce may refuse a command at once (closed connection): the failure policy decides.
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Loads a script once at build so that the first EVALSHA finds it; if Redis is away, NOSCRIPT handles it. */
    private void preload(LuaScript lua) {
        try {
            commands.scriptLoad(lua.body()).get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException | RuntimeException e) {
            return; // not a decision, so not a failure: the first EVALSHA meets NOSCRIPT and sends the script
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean fromLease(String body, long permits, long nowNanos, Decision d) {
        if (leaseBatch == 0) {
            return false;
        }
        Lease lease = leases.get(body);
        if (lease == null) {
            return false;
        }
        if (nowNanos - lease.takenAt < leaseHoldNanos) {
            long left = lease.take(permits);
            if (left >= 0) {
                leaseHits.increment();
                d.set(true, capacity, left, 0, 0, 0).request(permits, nowNanos);
                return true;
            }
        }
        if (leases.remove(body, lease)) {
            lease.drain(); // spent or too old: its surplus, if any, is dropped (never given back)
        }
        return false;
    }

    private boolean interpret(long[] r, String body, long permits, long nowNanos, Decision d) {
        boolean allowed = r[0] == 1;
        long granted = r[1];
        long surplus = allowed ? granted - permits : 0;
        if (surplus > 0) {
            Lease replaced = leases.put(body, new Lease(surplus, nowNanos));
            if (replaced != null) {
                replaced.drain(); // one live lease per key: what a concurrent request leased before is dropped
            }
        }
        switch (algorithm) {
            case TOKEN_BUCKET:
            case LEAKY_BUCKET:
                describeBucket(allowed, permits, granted, r[2] * 1000 + r[3], d);
                break;
            case FIXED_WINDOW:
                describeFixed(allowed, permits, granted, r[2], r[3] * 1000, d);
                break;
            case SLIDING_WINDOW_COUNTER:
                describeCounter(allowed, permits, granted, r[2], r[3], r[4] * 1000, d);
                break;
            case SLIDING_WINDOW_LOG:
                describeLog(allowed, permits, granted, r[2], r[3] * 1000, r[4] * 1000, d);
                break;
            default:
                throw new AssertionError(algorithm);
        }
        d.request(permits, nowNanos);
        return allowed;
    }

    /** {@code ahead}: TAT' - now if admitted, max(TAT, now) - now if denied, in ns. */
    private void describeBucket(boolean allowed, long permits, long granted, long ahead, Decision d) {
        long tolerance = capacity * emission;
        long remaining = (tolerance - ahead) / emission;
        if (allowed) {
            long delay = algorithm == Algorithm.LEAKY_BUCKET ? ahead - granted * emission : 0;
            d.set(true, capacity, remaining + granted - permits, 0, ahead, delay);
        } else {
            long retry = permits > capacity ? Decision.NEVER : ahead + permits * emission - tolerance;
            d.set(false, capacity, remaining, retry, ahead, 0);
        }
    }

    private void describeFixed(boolean allowed, long permits, long granted, long count, long untilEnd, Decision d) {
        long limit = config.limit();
        if (allowed) {
            d.set(true, limit, limit - count - permits, 0, untilEnd, 0);
        } else {
            long retry = permits > limit ? Decision.NEVER : untilEnd;
            d.set(false, limit, limit - count, retry, count > 0 ? untilEnd : 0, 0);
        }
    }

    /** As the local sliding counter: {@code e} is the time since the current window began, in ns. */
    private void describeCounter(boolean allowed, long permits, long granted, long prev, long curr, long e,
            Decision d) {
        long limit = config.limit();
        long w = windowNanos;
        long after = allowed ? curr + granted : curr;
        // limit * W < 2^63 (checked at build), so these products fit in a long.
        long weighted = prev - prev * e / w;
        long remaining = Math.max(0, limit - after - weighted) + (allowed ? granted - permits : 0);
        long reset = after > 0 ? 2 * w - e : prev > 0 ? w - e : 0;
        if (allowed) {
            d.set(true, limit, remaining, 0, reset, 0);
        } else {
            d.set(false, limit, remaining, counterRetry(prev, curr, e, permits), reset, 0);
        }
    }

    private long counterRetry(long prev, long curr, long e, long permits) {
        long limit = config.limit();
        long w = windowNanos;
        if (permits > limit) {
            return Decision.NEVER;
        }
        long left = limit - curr - permits;
        if (left >= 0 && prev > 0) {
            long at = w - left * w / prev;
            if (at < w) {
                return Math.max(0, at - e);
            }
        }
        long untilNext = w - e;
        if (curr == 0) {
            return untilNext;
        }
        long at = w - Math.min(w, (limit - permits) * w / curr);
        return at < w ? untilNext + at : untilNext + w;
    }

    private void describeLog(boolean allowed, long permits, long granted, long inWindow, long reset, long retry,
            Decision d) {
        long limit = config.limit();
        long remaining = Math.max(0, limit - inWindow) + (allowed ? granted - permits : 0);
        if (allowed) {
            d.set(true, limit, remaining, 0, reset, 0);
        } else {
            d.set(false, limit, remaining, permits > limit ? Decision.NEVER : Math.max(0, retry), reset, 0);
        }
    }

    private boolean fail(Decision d, long permits, long nowNanos) {
        failures.increment();
        boolean open = failurePolicy == FailurePolicy.FAIL_OPEN;
        d.set(open, capacity, 0, open ? 0 : timeoutNanos, 0, 0).request(permits, nowNanos);
        return open;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RedisRateLimiter " + keyBase + " is closed");
        }
    }

    private static void checkPermits(long permits) {
        if (permits <= 0) {
            throw new IllegalArgumentException("permits must be at least 1, was " + permits);
        }
    }

    /**
     * The time the memo of denials measures by: the caller's (floored to the microsecond the script sees) when the
     * scripts take it, else this limiter's clock.
     */
    private long memoNow(long nowNanos) {
        return callerTime ? Math.max(0, nowNanos / 1000) * 1000 : clock.nanoTime();
    }

    /**
     * The key's name inside Redis: {@code n{42}}, {@code s{alice}}, or {@code p5{alice}search} (the first part's
     * length makes the split unambiguous; the braces make the first part the hash tag).
     */
    private static String body(byte kind, long number, CharSequence first, CharSequence second) {
        switch (kind) {
            case DenyMemo.LONG:
                return "n{" + number + '}';
            case DenyMemo.STRING:
                return "s{" + first + '}';
            default:
                return "p" + first.length() + '{' + first + '}' + second;
        }
    }

    private static CharSequence stringKey(CharSequence key) {
        return Objects.requireNonNull(key, "key must not be null");
    }

    private static CharSequence firstKey(CharSequence first) {
        return Objects.requireNonNull(first, "first key part must not be null");
    }

    private static CharSequence secondKey(CharSequence second) {
        return Objects.requireNonNull(second, "second key part must not be null");
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static long[] longs(List<Object> reply) {
        long[] values = new long[reply.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (Long) reply.get(i);
        }
        return values;
    }

    /** The length of one request's reply from the algorithm's script. */
    private static int replyLength(Algorithm algorithm) {
        return algorithm == Algorithm.SLIDING_WINDOW_COUNTER || algorithm == Algorithm.SLIDING_WINDOW_LOG ? 5 : 4;
    }

    /** The config's own name, so that limiters of equal configs share keys and different configs never do. */
    static String defaultNamespace(RateLimitConfig config) {
        return config.algorithm().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + '-'
                + config.limit() + '-' + config.windowNanos() / 1000 + "us-" + config.burst();
    }

    /** A batch of permits granted by Redis, spent here. */
    private static final class Lease {
        // Atomic: threads spend one lease together; a CAS per take keeps it from going below zero.
        final AtomicLong left;
        final long takenAt;

        Lease(long left, long takenAt) {
            this.left = new AtomicLong(left);
            this.takenAt = takenAt;
        }

        /** Drops what is left: no later {@link #take} succeeds. */
        void drain() {
            left.set(0);
        }

        /** Takes {@code n} permits if there are; the permits left, or -1. */
        long take(long n) {
            // A local CAS loop on this JVM's own counter; Redis is not involved.
            for (;;) {
                long v = left.get();
                if (v < n) {
                    return -1;
                }
                if (left.compareAndSet(v, v - n)) {
                    return v - n;
                }
            }
        }
    }

    /** Options of a {@link RedisRateLimiter}. */
    public static final class Builder {
        private final RateLimitConfig config;
        private final StatefulConnection<String, String> connection;
        private final RedisScriptingAsyncCommands<String, String> commands;
        private final RedisClient client;
        private String keyPrefix = "sluice:";
        private String namespace;
        private Duration timeout = Duration.ofMillis(100);
        private FailurePolicy failurePolicy = FailurePolicy.FAIL_OPEN;
        private Clock clock = Clock.system();
        private long leaseBatch;
        private Duration leaseHold = Duration.ZERO;
        private boolean callerTime;
        private int memoSlots = DEFAULT_MEMO_SLOTS;
        private int coalesceBatch;

        private Builder(RateLimitConfig config, StatefulConnection<String, String> connection,
                RedisScriptingAsyncCommands<String, String> commands, RedisClient client) {
            this.config = Objects.requireNonNull(config, "config must not be null");
            this.connection = connection;
            this.commands = commands;
            this.client = client;
        }

        /** Prepended to every key (default {@code "sluice:"}); must not contain braces (they make hash tags). */
        public Builder keyPrefix(String prefix) {
            Objects.requireNonNull(prefix, "keyPrefix must not be null");
            if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
                throw new IllegalArgumentException("keyPrefix must not contain '{' or '}', was " + prefix);
            }
            this.keyPrefix = prefix;
            return this;
        }

        /**
         * Keys of this limiter follow the prefix and this name (letters, digits, {@code _ . -}). The default is made
         * from the config, so limiters of equal configs on several gateways share keys.
         */
        public Builder namespace(String namespace) {
            if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
                throw new IllegalArgumentException("namespace must match " + NAMESPACE + ", was " + namespace);
            }
            this.namespace = namespace;
            return this;
        }

        /** How long a decision waits for Redis before the failure policy decides (default 100 ms). */
        public Builder timeout(Duration timeout) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, was " + human(timeout));
            }
            this.timeout = timeout;
            return this;
        }

        /** What to decide when Redis does not answer in time (default {@link FailurePolicy#FAIL_OPEN}). */
        public Builder failurePolicy(FailurePolicy policy) {
            this.failurePolicy = Objects.requireNonNull(policy, "failurePolicy must not be null");
            return this;
        }

        /**
         * The clock the memo of denials measures elapsed time by, and the methods without {@code nowNanos} read for
         * lease ageing (default system: monotonic). It must not go backwards.
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock must not be null");
            return this;
        }

        /**
         * Leases: a round trip asks for up to {@code batch} permits and keeps the surplus locally for at most
         * {@code maxHold}. Over-admission bound: see the class comment. Not for LEAKY_BUCKET.
         */
        public Builder leasing(long batch, Duration maxHold) {
            if (batch < 2 || batch > config.burst()) {
                throw new IllegalArgumentException("lease batch must be in [2, " + config.burst() + "], was " + batch);
            }
            if (maxHold == null || maxHold.isNegative() || maxHold.isZero()) {
                throw new IllegalArgumentException("lease maxHold must be positive, was " + human(maxHold));
            }
            if (config.algorithm() == Algorithm.LEAKY_BUCKET) {
                throw new IllegalArgumentException("leasing does not apply to LEAKY_BUCKET: each request has its delay");
            }
            this.leaseBatch = batch;
            this.leaseHold = maxHold;
            return this;
        }

        /**
         * The memo of denials: {@code slots} (a power of two up to 2^20, or 0 for none; default
         * {@value #DEFAULT_MEMO_SLOTS}) remembered denials, so that a key Redis has denied is denied again locally,
         * with no round trip, while Redis would deny it too. See the class comment for what it assumes.
         */
        public Builder denyMemo(int slots) {
            if (slots < 0 || slots > MAX_MEMO_SLOTS || (slots & (slots - 1)) != 0) {
                throw new IllegalArgumentException("denyMemo slots must be 0 or a power of two from 1 to "
                        + MAX_MEMO_SLOTS + ", was " + slots);
            }
            this.memoSlots = slots;
            return this;
        }

        /**
         * Coalescing: while a script call for a key is in flight, later requests of this limiter for the same key
         * wait in a bounded lock-free queue of {@code maxBatch} places (2 to {@value #MAX_COALESCE_BATCH}; off by
         * default), and the next call decides up to {@code maxBatch} of them in one script run, in queue order, each
         * exactly as if sent alone at that point. A request that finds the queue full is sent alone (and may reach
         * Redis ahead of queued ones: each is still decided in Redis's order); a waiting
         * request still answers within the timeout. Exclusive with {@link #leasing}.
         */
        public Builder coalesce(int maxBatch) {
            if (maxBatch < 2 || maxBatch > MAX_COALESCE_BATCH) {
                throw new IllegalArgumentException("coalesce maxBatch must be in [2, " + MAX_COALESCE_BATCH
                        + "] requests, was " + maxBatch);
            }
            this.coalesceBatch = maxBatch;
            return this;
        }

        /** Tests only: the scripts use the caller's {@code nowNanos} (in whole us) instead of Redis TIME. */
        Builder callerTimeForTests() {
            this.callerTime = true;
            return this;
        }

        /** A duration for a configuration error, in the units a person reads: "250 ms", "-1 s", "1 hour". */
        private static String human(Duration d) {
            if (d == null) {
                return "null";
            }
            Duration size = d.isNegative() ? d.negated() : d;
            return (d.isNegative() ? "-" : "") + Human.duration(size);
        }

        /** Checks the config against what the scripts compute exactly, then loads the script once. */
        public RedisRateLimiter build() {
            long w = config.windowNanos();
            if (config.alignmentNanos() != 0) {
                throw new IllegalArgumentException("alignment must be UTC on Redis (its scripts count windows from "
                        + "1970 on Redis TIME), was " + config.alignment());
            }
            if (w % 1000 != 0) {
                throw new IllegalArgumentException("window must be a whole number of microseconds on Redis, was "
                        + Human.duration(config.window()) + " (" + w + " ns)");
            }
            if (config.algorithm() == Algorithm.SLIDING_WINDOW_COUNTER && config.limit() >= EXACT_LUA / (w / 1000)) {
                throw new IllegalArgumentException("limit * window (in us) must be below 2^53 for "
                        + "SLIDING_WINDOW_COUNTER on Redis, was " + config.limit() + " * " + w / 1000);
            }
            if (coalesceBatch > 0 && leaseBatch > 0) {
                throw new IllegalArgumentException("coalesce and leasing are exclusive: coalesce maxBatch was "
                        + coalesceBatch + ", lease batch was " + leaseBatch + "; choose one");
            }
            if (client != null) {
                StatefulRedisConnection<String, String> own = client.connect();
                return new RedisRateLimiter(this, own, own.async(), true);
            }
            return new RedisRateLimiter(this, connection, commands, false);
        }
    }
}
