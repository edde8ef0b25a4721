package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Distribution;
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
 * Sluice's memory backends side by side: {@code VAR_HANDLE} (byte-buffer view VarHandles, no JVM flag), {@code UNSAFE}
 * ({@code sun.misc.Unsafe}, no JVM flag, the default up to JDK 23),
 * {@code AGRONA} ({@code UnsafeBuffer}, needs the export below, which these forks get), and on JDK 22+ {@code FFM}
 * ({@code -p backend=FFM}), which the {@code NativeAccess} methods measure in forks granted native access, where it
 * reaches memory by address. Hot key (token bucket, admitted) and 1M uniform long keys, own clock.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Xms4g", "-Xmx4g"})
public class BackendBenchmark {

    @State(Scope.Benchmark)
    public static class HotKey {
        @Param({"VAR_HANDLE", "UNSAFE", "AGRONA"})
        public MemoryBackend backend;

        Subject subject;

        @Setup(Level.Trial)
        public void setUp() {
            subject = Impl.SLUICE.create(Regime.ADMIT.config(Algorithm.TOKEN_BUCKET), HotKeyBenchmark.HOT_MAX_KEYS,
                    backend);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            subject.close();
        }
    }

    @State(Scope.Benchmark)
    public static class ManyKeys {
        @Param({"VAR_HANDLE", "UNSAFE", "AGRONA"})
        public MemoryBackend memory;

        @Param("1000000")
        public int keys;

        Subject subject;
        int[] order;

        @Setup(Level.Trial)
        public void setUp() {
            subject = Impl.SLUICE.create(ManyKeysBenchmark.CONFIG, keys, memory);
            order = Workload.order(Distribution.UNIFORM, keys);
            Caller filler = Caller.standalone();
            for (int i = 0; i < keys; i++) {
                subject.tryAcquire(Workload.longKey(i), filler);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            subject.close();
        }
    }

    @Benchmark
    @Threads(1)
    public boolean hotKeyT1(HotKey s, Caller caller) {
        return s.subject.tryAcquire(Workload.HOT_KEY, caller);
    }

    @Benchmark
    @Threads(2)
    public boolean hotKeyT2(HotKey s, Caller caller) {
        return s.subject.tryAcquire(Workload.HOT_KEY, caller);
    }

    @Benchmark
    @Threads(1)
    public boolean manyKeysT1(ManyKeys s, Caller caller) {
        return s.subject.tryAcquire(Workload.longKey(s.order[caller.next()]), caller);
    }

    /** {@link #hotKeyT1} in a JVM that grants native access: FFM then reaches memory by address. */
    @Benchmark
    @Threads(1)
    @Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED", "-Xms4g", "-Xmx4g"})
    public boolean hotKeyT1NativeAccess(HotKey s, Caller caller) {
        return s.subject.tryAcquire(Workload.HOT_KEY, caller);
    }

    /** {@link #manyKeysT1} in a JVM that grants native access. */
    @Benchmark
    @Threads(1)
    @Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED", "-Xms4g", "-Xmx4g"})
    public boolean manyKeysT1NativeAccess(ManyKeys s, Caller caller) {
        return s.subject.tryAcquire(Workload.longKey(s.order[caller.next()]), caller);
    }
}
