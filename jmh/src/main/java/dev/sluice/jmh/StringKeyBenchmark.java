package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.RateLimiter;
import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Distribution;
import dev.sluice.jmh.support.Regime;
import dev.sluice.jmh.support.UnkeyedStringHash;
import dev.sluice.jmh.support.Workload;
import dev.sluice.reference.ReferenceRateLimiter;
import dev.sluice.table.Fingerprint;
import dev.sluice.table.FingerprintCache;
import dev.sluice.table.KeyHashing;
import dev.sluice.table.SipHasher;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One hot string key of {@code length} ASCII chars, token bucket in the admitted regime: Sluice with its own clock
 * and with the caller's time beside the synchronized reference; the same chars as a fresh String per request (its
 * {@code hashCode()} not cached, as a gateway builds it from a header) on 1 and 4 threads; the same bytes from a
 * {@code byte[]} range and a direct {@code ByteBuffer}; the key hash alone, the keyed PRF beside the unkeyed hash it
 * replaced and beside a key cache hit; and a million String keys in uniform order ({@code manyKeys*}), where nearly
 * every request misses the key cache. {@code keyCache=false} builds Sluice without its String key caches (the keyed
 * hash on every request), so one run shows both side by side; the reference is the same in both. Read beside
 * {@link FloorBenchmark}'s hot clock read and CAS; allocation with {@code -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StringKeyBenchmark {

    private static final long LONG_KEY = 42L;

    @Param({"8", "16", "32", "64"})
    public int length;

    /** Sluice with ({@code true}) or without its String key caches. */
    @Param({"true", "false"})
    public boolean keyCache;

    private RateLimiter sluice;
    private RateLimiter reference;
    private String key;
    private char[] chars;
    private byte[] bytes;
    private ByteBuffer direct;
    private final KeyHashing hashing = KeyHashing.draw();
    private final FingerprintCache keyCacheAlone = FingerprintCache.ofKeys(16);
    private final long unkeyedSeed = 0x5EEDL;

    @Setup(Level.Trial)
    public void setUp() {
        StringBuilder sb = new StringBuilder("user42|api7/");
        while (sb.length() < length) {
            sb.append((char) ('a' + sb.length() % 26));
        }
        key = sb.substring(0, length);
        chars = key.toCharArray();
        bytes = key.getBytes(StandardCharsets.UTF_8);
        direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        System.setProperty("sluice.keyCache", Boolean.toString(keyCache));
        keyCacheAlone.offer(key, 1, 2);
        sluice = RateLimiter.builder(Regime.ADMIT.config(Algorithm.TOKEN_BUCKET)).maxKeys(16).build();
        reference = new ReferenceRateLimiter(Regime.ADMIT.config(Algorithm.TOKEN_BUCKET), sluice.clock());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sluice.close();
        reference.close();
    }

    @Benchmark
    public boolean hotOwnClockSluice() {
        return sluice.tryAcquire(key, 1);
    }

    @Benchmark
    public boolean hotOwnClockReference() {
        return reference.tryAcquire(key, 1);
    }

    @Benchmark
    public boolean hotCallerTimeSluice(Caller caller) {
        return sluice.tryAcquire(key, 1, caller.tick(), caller.decision);
    }

    @Benchmark
    public boolean hotCallerTimeReference(Caller caller) {
        return reference.tryAcquire(key, 1, caller.tick(), caller.decision);
    }

    @Benchmark
    public boolean freshStringSluiceT1(Caller caller) {
        return sluice.tryAcquire(new String(chars), 1, caller.tick(), caller.decision);
    }

    @Benchmark
    public boolean freshStringReferenceT1(Caller caller) {
        return reference.tryAcquire(new String(chars), 1, caller.tick(), caller.decision);
    }

    @Benchmark
    @Threads(4)
    public boolean freshStringSluiceT4(Caller caller) {
        return sluice.tryAcquire(new String(chars), 1, caller.tick(), caller.decision);
    }

    @Benchmark
    @Threads(4)
    public boolean freshStringReferenceT4(Caller caller) {
        return reference.tryAcquire(new String(chars), 1, caller.tick(), caller.decision);
    }

    /**
     * The same limiter on a {@code long} key, caller's time: the decision without the String's part, which
     * {@link #hotCallerTimeSluice} adds (a key cache hit) on top.
     */
    @Benchmark
    public boolean hotCallerTimeLongKeySluice(Caller caller) {
        return sluice.tryAcquire(LONG_KEY, 1, caller.tick(), caller.decision);
    }

    /**
     * What any String-keyed design pays for a fresh String before it reaches any state: building it from the
     * chars, its {@code hashCode()} (not cached yet) and one {@code equals} against the stored key. The
     * {@code freshString*} paths cannot run faster than this. The String escapes to the black hole, as it does into
     * a limiter, so it is allocated as it is there (48 B at 8 chars, 104 B at 64).
     */
    @Benchmark
    public int freshStringFloor(Blackhole hole) {
        String s = new String(chars);
        hole.consume(s);
        return s.hashCode() + (s.equals(key) ? 1 : 0);
    }

    @Benchmark
    public boolean bytesArraySluice(Caller caller) {
        return sluice.tryAcquire(bytes, 0, bytes.length, 1, caller.tick(), caller.decision);
    }

    @Benchmark
    public boolean bytesDirectBufferSluice(Caller caller) {
        return sluice.tryAcquire(direct, 1, caller.tick(), caller.decision);
    }

    /** A million String keys, each built once (its hash cached), in a uniform random order; both limiters filled. */
    @State(Scope.Benchmark)
    public static class ManyKeys {
        static final int KEYS = 1 << 20;

        RateLimiter sluice;
        RateLimiter reference;
        String[] names;
        int[] order;

        @Setup(Level.Trial)
        public void setUp(StringKeyBenchmark benchmark) {
            System.setProperty("sluice.keyCache", Boolean.toString(benchmark.keyCache));
            sluice = RateLimiter.builder(Regime.ADMIT.config(Algorithm.TOKEN_BUCKET)).maxKeys(KEYS).build();
            reference = new ReferenceRateLimiter(Regime.ADMIT.config(Algorithm.TOKEN_BUCKET), sluice.clock());
            names = Workload.names(KEYS);
            order = Workload.order(Distribution.UNIFORM, KEYS);
            Caller filler = Caller.standalone();
            for (String name : names) {
                sluice.tryAcquire(name, 1, filler.tick(), filler.decision);
                reference.tryAcquire(name, 1, filler.tick(), filler.decision);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            sluice.close();
            reference.close();
        }
    }

    @Benchmark
    public boolean manyKeysSluice(ManyKeys many, Caller caller) {
        return many.sluice.tryAcquire(many.names[many.order[caller.next()]], 1, caller.tick(), caller.decision);
    }

    @Benchmark
    public boolean manyKeysReference(ManyKeys many, Caller caller) {
        return many.reference.tryAcquire(many.names[many.order[caller.next()]], 1, caller.tick(), caller.decision);
    }

    @Benchmark
    public long hashSip13() {
        SipHasher h = hashing.stringKey();
        h.putUtf8(key);
        h.finish();
        return h.first() ^ h.second();
    }

    /** The key cache's hit alone: the lookup that replaces {@link #hashSip13} for a String seen before. */
    @Benchmark
    public long hashKeyCacheHit() {
        Fingerprint f = new Fingerprint();
        keyCacheAlone.find(key, f);
        return f.keyword() ^ f.check();
    }

    @Benchmark
    public long hashUnkeyed() {
        return UnkeyedStringHash.fingerprint(key, unkeyedSeed);
    }
}
