package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Impl;
import dev.sluice.jmh.support.Regime;
import dev.sluice.jmh.support.Subject;
import dev.sluice.jmh.support.Workload;
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
 * Contention on one hot key: every thread asks for the same key. Sluice (own clock and caller-supplied time) against
 * the synchronized reference, every algorithm, in the admitted and the denied regime, on 1, 2, 4 and 8 threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotKeyBenchmark {

    /** Room for a few keys: the sliding log's ring of 65,536 stamps is 512 KiB per key of capacity. */
    static final int HOT_MAX_KEYS = 16;

    @Param({"SLUICE", "SLUICE_CALLER_TIME", "REFERENCE"})
    public Impl impl;

    @Param({"TOKEN_BUCKET", "FIXED_WINDOW", "SLIDING_WINDOW_LOG", "SLIDING_WINDOW_COUNTER", "LEAKY_BUCKET"})
    public Algorithm algorithm;

    @Param({"ADMIT", "DENY"})
    public Regime regime;

    private Subject subject;

    @Setup(Level.Trial)
    public void setUp() {
        subject = impl.create(regime.config(algorithm), HOT_MAX_KEYS, MemoryBackend.AUTO);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        subject.close();
    }

    @Benchmark
    @Threads(1)
    public boolean t1(Caller caller) {
        return subject.tryAcquire(Workload.HOT_KEY, caller);
    }

    @Benchmark
    @Threads(2)
    public boolean t2(Caller caller) {
        return subject.tryAcquire(Workload.HOT_KEY, caller);
    }

    @Benchmark
    @Threads(4)
    public boolean t4(Caller caller) {
        return subject.tryAcquire(Workload.HOT_KEY, caller);
    }

    @Benchmark
    @Threads(8)
    public boolean t8(Caller caller) {
        return subject.tryAcquire(Workload.HOT_KEY, caller);
    }
}
