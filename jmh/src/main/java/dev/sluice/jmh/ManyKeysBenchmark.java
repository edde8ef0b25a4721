package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Distribution;
import dev.sluice.jmh.support.Impl;
import dev.sluice.jmh.support.KeyType;
import dev.sluice.jmh.support.Subject;
import dev.sluice.jmh.support.Workload;
import java.time.Duration;
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

/**
 * Many keys: {@code keys} distinct keys (1,000,000 by default), all present before measurement (the setup asks for
 * each once), then requests drawn uniformly or Zipf(1) from a precomputed order. A token bucket of 100 per second per
 * key, for every implementation. Measures the steady state of existing keys: table lookups that miss the CPU caches.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ManyKeysBenchmark {

    static final RateLimitConfig CONFIG = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofSeconds(1));

    @Param({"SLUICE", "SLUICE_CALLER_TIME", "SLUICE_DECISION", "REFERENCE", "BUCKET4J_LOCK_FREE",
            "BUCKET4J_SYNCHRONIZED", "RESILIENCE4J", "GUAVA"})
    public Impl impl;

    @Param({"LONG", "STRING"})
    public KeyType keyType;

    @Param({"UNIFORM", "ZIPF"})
    public Distribution distribution;

    @Param("1000000")
    public int keys;

    /**
     * Sluice's capacity: 0 (the report's runs) sizes its table to {@code keys}; a larger value, such as the builder's
     * default 1048576, measures a table mostly empty, whose keys are spread over all of it.
     */
    @Param("0")
    public int maxKeys;

    private Subject subject;
    private int[] order;
    private String[] names;
    private boolean longs;

    @Setup(Level.Trial)
    public void setUp() {
        subject = impl.create(CONFIG, maxKeys > 0 ? maxKeys : keys, MemoryBackend.AUTO);
        order = Workload.order(distribution, keys);
        longs = keyType == KeyType.LONG;
        Caller filler = Caller.standalone();
        if (longs) {
            for (int i = 0; i < keys; i++) {
                subject.tryAcquire(Workload.longKey(i), filler);
            }
        } else {
            names = Workload.names(keys);
            for (int i = 0; i < keys; i++) {
                subject.tryAcquire(names[i], filler);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        subject.close();
    }

    /**
     * A long key is computed from its index, as a gateway has its caller's id in hand; an array of a million keys
     * would add a cache miss of the benchmark's own to every request. String keys come from an array (cold, as the
     * strings of many callers are).
     */
    private boolean next(Caller caller) {
        int k = order[caller.next()];
        return longs ? subject.tryAcquire(Workload.longKey(k), caller) : subject.tryAcquire(names[k], caller);
    }

    @Benchmark
    @Threads(1)
    public boolean t1(Caller caller) {
        return next(caller);
    }

    @Benchmark
    @Threads(2)
    public boolean t2(Caller caller) {
        return next(caller);
    }
}
