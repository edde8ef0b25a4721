package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Distribution;
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
 * {@code RateLimiterService.allow(user, api)} with a realistic rule set: a default, {@value #API_RULES} API rules,
 * {@value #USER_RULES} user rules and {@value #PAIR_RULES} (user, api) rules over six distinct configs, and
 * {@code keys} (user, api) pairs ({@value #APIS} APIs), all seen once before measurement, drawn uniformly or
 * Zipf(1). Names are precomputed {@code String}s, as a gateway holds them after parsing a request.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ServiceBenchmark {

    static final int APIS = 1000;
    static final int API_RULES = 200;
    static final int USER_RULES = 300;
    static final int PAIR_RULES = 50;

    @Param({"UNIFORM", "ZIPF"})
    public Distribution distribution;

    @Param("1000000")
    public int keys;

    private RateLimiterService service;
    private int[] order;
    private String[] users;
    private String[] apis;

    @Setup(Level.Trial)
    public void setUp() {
        int userCount = Math.max(1, keys / APIS);
        users = new String[userCount];
        for (int u = 0; u < userCount; u++) {
            users[u] = Workload.name(u);
        }
        apis = new String[APIS];
        for (int a = 0; a < APIS; a++) {
            apis[a] = "/api/v1/resource-" + a;
        }
        service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofSeconds(1)))
                .maxKeysPerLimiter(userCount * APIS)
                .build();
        RateLimitConfig[] apiConfigs = {
            RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 50, Duration.ofSeconds(1)),
            RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 1000, Duration.ofMinutes(1)),
            RateLimitConfig.of(Algorithm.FIXED_WINDOW, 500, Duration.ofSeconds(10)),
        };
        RateLimitConfig[] userConfigs = {
            RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1000, Duration.ofSeconds(1)),
            RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10_000, Duration.ofMinutes(1)),
        };
        RateLimitConfig pairConfig = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 10, Duration.ofSeconds(1));
        for (int a = 0; a < API_RULES; a++) {
            service.configureApi(apis[a * (APIS / API_RULES)], apiConfigs[a % apiConfigs.length]);
        }
        for (int u = 0; u < Math.min(USER_RULES, userCount); u++) {
            service.configureUser(users[u * Math.max(1, userCount / USER_RULES) % userCount],
                    userConfigs[u % userConfigs.length]);
        }
        for (int p = 0; p < PAIR_RULES; p++) {
            service.configureUserApi(users[p % userCount], apis[(p * 7 + 3) % APIS], pairConfig);
        }
        order = Workload.order(distribution, userCount * APIS);
        for (int k = 0; k < userCount * APIS; k++) {
            service.allow(users[k / APIS], apis[k % APIS]);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        service.close();
    }

    private boolean next(Caller caller) {
        int k = order[caller.next()];
        return service.allow(users[k / APIS], apis[k % APIS]);
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

    /** The headers path: the whole answer in the caller's {@link dev.sluice.Decision}. */
    @Benchmark
    @Threads(1)
    public boolean decisionT1(Caller caller) {
        int k = order[caller.next()];
        return service.allow(users[k / APIS], apis[k % APIS], 1, caller.decision);
    }
}
