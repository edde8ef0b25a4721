package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.KeyScope;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import java.util.SplittableRandom;
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
 * The cost of each extra applicable limit: {@code RateLimiterService.allow(user, api, 1, decision)} where 1, 2 or 4
 * limits apply to every request: the default per (user, api); plus an additive per-user total at the user's
 * position; plus an additive per-API total at the API's position and an additive global count at the default
 * position. {@value #USERS} users x {@value #APIS} APIs, visited in a random order, all seen before measurement;
 * limits high enough that every request is admitted, so every limit is taken on every call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AdditiveBenchmark {

    static final int USERS = 256;
    static final int APIS = 16;
    private static final RateLimitConfig HIGH = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L,
            Duration.ofSeconds(1));
    private static final RateLimitConfig HIGH_WINDOW = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1_000_000_000L,
            Duration.ofSeconds(1));

    @Param({"1", "2", "4"})
    public int limits;

    private RateLimiterService service;
    private final Decision decision = new Decision();
    private String[] users;
    private String[] apis;
    private int[] order;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        users = new String[USERS];
        for (int u = 0; u < USERS; u++) {
            users[u] = "user-" + u;
        }
        apis = new String[APIS];
        for (int a = 0; a < APIS; a++) {
            apis[a] = "/api/v1/resource-" + a;
        }
        RuleSet.Builder rules = RuleSet.builder().defaultConfig(HIGH);
        if (limits >= 2) {
            Rule total = Rule.of(HIGH_WINDOW).countedPer(KeyScope.USER).additive();
            for (String user : users) {
                rules.addUser(user, total);
            }
        }
        if (limits >= 4) {
            Rule apiTotal = Rule.of(HIGH_WINDOW).countedPer(KeyScope.API).additive();
            for (String api : apis) {
                rules.addApi(api, apiTotal);
            }
            rules.addDefault(Rule.of(HIGH).countedPer(KeyScope.GLOBAL).additive());
        }
        service = RateLimiterService.builder().maxKeysPerLimiter(USERS * APIS * 2).rules(rules.build()).build();
        order = new SplittableRandom(7).ints(1 << 14, 0, USERS * APIS).toArray();
        for (int k = 0; k < USERS * APIS; k++) {
            if (!service.allow(users[k / APIS], apis[k % APIS], 1, decision)) {
                throw new IllegalStateException("warm-up request denied");
            }
        }
        if (decision.appliedCount() != limits) {
            throw new IllegalStateException("expected " + limits + " applicable limits, got " + decision.appliedCount());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        service.close();
    }

    @Benchmark
    public boolean allow() {
        int k = order[next];
        next = (next + 1) & (order.length - 1);
        return service.allow(users[k / APIS], apis[k % APIS], 1, decision);
    }
}
