package dev.sluice.demo;

import dev.sluice.Algorithm;
import dev.sluice.Clock;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.RateLimiterBuilder;
import dev.sluice.RateLimiterService;
import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * The main job: the scenario through {@link RateLimiterService} on a manual clock, decision by decision, then
 * a short, indicative throughput run of the lock-free engine against the synchronized reference.
 */
public final class Demo {

    private static final long RUN_NANOS = Duration.ofMillis(1500).toNanos();

    private Demo() {
    }

    public static void main(String[] args) throws InterruptedException {
        scenario();
        throughput();
    }

    private static void scenario() {
        System.out.println("Sluice scenario (Y = allowed), rules: default FIXED_WINDOW 3/1000 ms, api search TOKEN_BUCKET"
                + " 5/1000 ms, user premium SLIDING_WINDOW_LOG 4/1000 ms, (premium, pay) TOKEN_BUCKET 2/1000 ms");
        for (String line : scenarioLines()) {
            System.out.println("  " + line);
        }
    }

    /** The scenario's decisions, one line per step: time, user, api, count and the Y/N string. */
    public static List<String> scenarioLines() {
        ManualClock clock = new ManualClock();
        List<String> lines = new ArrayList<>();
        try (RateLimiterService service = RateLimiterService.builder().clock(clock)
                .defaultConfig(new RateLimitConfig(Algorithm.FIXED_WINDOW, 3, 1000)).build()) {
            service.configureApi("search", new RateLimitConfig(Algorithm.TOKEN_BUCKET, 5, 1000));
            service.configureUser("premium", new RateLimitConfig(Algorithm.SLIDING_WINDOW_LOG, 4, 1000));
            service.configureUserApi("premium", "pay", new RateLimitConfig(Algorithm.TOKEN_BUCKET, 2, 1000));
            Object[][] steps = {{0, "alice", "home", 5}, {0, "bob", "home", 4}, {0, "alice", "search", 7},
                {400, "alice", "search", 3}, {10_900, "carl", "home", 3}, {11_050, "carl", "home", 3},
                {20_000, "premium", "feed", 5}, {20_900, "premium", "feed", 1}, {21_001, "premium", "feed", 5},
                {21_001, "premium", "pay", 3}};
            for (Object[] step : steps) {
                int at = (Integer) step[0];
                int times = (Integer) step[3];
                clock.setMillis(at);
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < times; i++) {
                    sb.append(service.allow((String) step[1], (String) step[2]) ? 'Y' : 'N');
                }
                lines.add(String.format("t=%6d ms  %-8s %-7s x%d  %s", at, step[1], step[2], times, sb));
            }
        }
        return lines;
    }

    private static void throughput() throws InterruptedException {
        System.out.println();
        System.out.println("Indicative throughput (1.5 s per run, TOKEN_BUCKET 1e9/s, so mostly admitted;");
        System.out.println("not a benchmark: the side-by-side numbers are in jmh/results/REPORT.md):");
        System.out.println("  keys                 threads     sluice req/s  reference req/s   ratio");
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L, Duration.ofSeconds(1));
        String[] many = new String[10_000];
        for (int i = 0; i < many.length; i++) {
            many[i] = "user-" + (i % 100) + ":api-" + (i / 100);
        }
        row("one hot key", new String[] {"alice:search"}, RateLimiterBuilder.DEFAULT_MAX_KEYS, config);
        row("10,000, sized", many, 16_384, config);
        row("10,000, default", many, RateLimiterBuilder.DEFAULT_MAX_KEYS, config);
        System.out.println("  \"sized\": maxKeys(16_384); \"default\": room for 1,048,576 keys (32 MiB),");
        System.out.println("  over which the 10,000 keys spread, missing the CPU caches and TLB: size maxKeys");
        System.out.println("  to the keys active at once (README, Guarantees). Sluice hashes a String key's");
        System.out.println("  characters, seeded, on every call; the reference uses its cached hashCode().");
        System.out.println("  1M keys: jmh/results/REPORT.md, section 2.");
    }

    private static void row(String label, String[] keys, int maxKeys, RateLimitConfig config)
            throws InterruptedException {
        // Requests visit the keys in a random order, as a gateway's callers do; a round-robin in creation order
        // would walk the reference's per-key objects in allocation order, which the hardware prefetcher rewards.
        int[] order = new SplittableRandom(42).ints(1 << 16, 0, keys.length).toArray();
        for (int threads = 1; threads <= 2; threads++) {
            double sluice;
            double reference;
            try (RateLimiter engine = RateLimiter.builder(config).maxKeys(maxKeys).build()) {
                sluice = measure(engine, keys, order, threads);
            }
            try (RateLimiter classic = new ReferenceRateLimiter(config, Clock.system())) {
                reference = measure(classic, keys, order, threads);
            }
            System.out.printf("  %-20s %7d  %15.0f  %15.0f  %6.2fx%n", label, threads, sluice, reference,
                    sluice / reference);
        }
    }

    private static double measure(RateLimiter limiter, String[] keys, int[] order, int threads)
            throws InterruptedException {
        run(limiter, keys, order, threads, RUN_NANOS / 3); // warm-up
        return run(limiter, keys, order, threads, RUN_NANOS) * 1e9 / RUN_NANOS;
    }

    private static long run(RateLimiter limiter, String[] keys, int[] order, int threads, long nanos)
            throws InterruptedException {
        LongAdder total = new LongAdder();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int offset = t * 7919; // threads start apart in the order
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                Clock clock = Clock.system();
                long end = clock.nanoTime() + nanos;
                long done = 0;
                int i = offset;
                while (true) {
                    for (int batch = 0; batch < 1024; batch++) {
                        limiter.tryAcquire(keys[order[i]]);
                        i = (i + 1) & (order.length - 1);
                    }
                    done += 1024;
                    if (clock.nanoTime() >= end) {
                        break;
                    }
                }
                total.add(done);
            });
            worker.start();
            workers.add(worker);
        }
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        return total.sum();
    }
}
