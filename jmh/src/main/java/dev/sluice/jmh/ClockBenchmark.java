package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.Clock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The epoch clock beside the monotonic one: a bare read of each, and a hot-key fixed-window decision (a day window,
 * so calendar-aligned on the epoch clock) on each. Run with {@code -prof gc}: every benchmark allocates nothing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class ClockBenchmark {

    /** Which clock. */
    public enum Kind {
        SYSTEM(Clock.system()), EPOCH(Clock.epoch());

        final Clock clock;

        Kind(Clock clock) {
            this.clock = clock;
        }
    }

    @Param({"SYSTEM", "EPOCH"})
    public Kind kind;

    private Clock clock;
    private RateLimiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
        clock = kind.clock;
        limiter = RateLimiter.builder(RateLimitConfig.of(Algorithm.FIXED_WINDOW,
                RateLimitConfig.maxLimit(Algorithm.FIXED_WINDOW, Duration.ofDays(1)),
                Duration.ofDays(1))).clock(clock).maxKeys(1024).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        limiter.close();
    }

    @Benchmark
    public long read() {
        return clock.nanoTime();
    }

    @Benchmark
    public boolean decideOnAHotKey() {
        return limiter.tryAcquire(42L);
    }
}
