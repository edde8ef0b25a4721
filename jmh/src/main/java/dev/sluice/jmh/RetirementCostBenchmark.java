package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.RateLimiterService;
import dev.sluice.jmh.support.Caller;
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
 * What the service's limiter retirement costs per call, side by side: {@code RateLimiterService.allow} on one hot
 * (user, api) pair under a default rule, against that rule's limit as a {@link RateLimiter} called directly with the
 * same two-part key, at the caller's time (one step of {@link Caller#STEP_NANOS} per call, under the limit: every
 * request is admitted). On the service's side a call reads the rule snapshot (volatile), resolves the rule, decides
 * inside a {@code try} that would catch a retired limiter's exception (no work unless it is thrown) and clears its
 * thread's scratch of the limiter it used. The difference is an upper bound of what retirement costs: it holds the
 * rule resolution and the metrics too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class RetirementCostBenchmark {

    /** One permit per {@link Caller#STEP_NANOS}: the limit is never reached at any rate a thread can call. */
    static final int LIMIT_PER_MILLI = 50_000;
    static final String USER = "user-42";
    static final String API = "/api/v1/orders";

    @Param({"TOKEN_BUCKET", "SLIDING_WINDOW_LOG"})
    public Algorithm algorithm;

    private RateLimiterService service;
    private RateLimiter limiter;

    @Setup(Level.Trial)
    public void setUp() {
        RateLimitConfig config = RateLimitConfig.of(algorithm, LIMIT_PER_MILLI, Duration.ofMillis(1));
        service = RateLimiterService.builder().defaultConfig(config).maxKeysPerLimiter(64).build();
        limiter = RateLimiter.builder(config).maxKeys(64).build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        service.close();
        limiter.close();
    }

    /** The service's path, retirement as built: snapshot, rule, limiter, scratch cleared. */
    @Benchmark
    public boolean service(Caller caller) {
        return service.allow(USER, API, 1, caller.tick(), null);
    }

    /** The same limit and key on the limiter alone: no snapshot, no retirement. */
    @Benchmark
    public boolean limiter(Caller caller) {
        return limiter.tryAcquire(USER, API, 1, caller.tick(), null);
    }
}
