package dev.sluice.redis;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.cas.LettuceBasedProxyManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Decisions per second against a local redis-server that this program starts: the plain {@code INCR} floor (one
 * round trip, no logic), a script that only INCRs (the floor of any one-script design), the token-bucket script on one
 * hot key and on many keys, the same with leasing and with coalescing, and pipelined async calls; Bucket4j on Redis through Lettuce on a hot allowed and a hot denied key; the deny cells (a
 * hot key at 10 per second, 10,000 drained keys) with the memo of denials off and on. Client threads share one
 * Lettuce connection per limiter. Indicative, not a JMH run: a fixed warm-up and measuring time per case,
 * p50/p99/p99.9 from an HdrHistogram of each call's latency, Redis CPU per decision from INFO cpu.
 *
 * <p>Run: {@code mvn -B -pl redis -am verify -DskipTests -Predis-bench} (-Dbench.seconds=N per case, default 3).
 */
public final class RedisThroughput {

    private static final RateLimitConfig RATE = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10_000_000, Duration.ofSeconds(10));

    private interface Call {
        void run(int thread);
    }

    private RedisThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        try (RedisServer server = RedisServer.startNew()) {
            RedisClient client = RedisClient.create(server.uri());
            client.setOptions(RedisRateLimiter.recommendedClientOptions());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> sync = connection.sync();
                RedisRateLimiter plain = RedisRateLimiter.builder(RATE, connection).timeout(Duration.ofSeconds(5)).build();
                RedisRateLimiter leasing = RedisRateLimiter.builder(RATE, connection).keyPrefix("lease:")
                        .timeout(Duration.ofSeconds(5)).leasing(100, Duration.ofMillis(100)).build();
                RedisRateLimiter coalescing = RedisRateLimiter.builder(RATE, connection).keyPrefix("coalesce:")
                        .timeout(Duration.ofSeconds(5)).coalesce(64).build();
                redis = sync;
                System.out.printf(Locale.ROOT, "%-34s %8s %14s %8s %8s %8s %12s%n", "case", "threads", "decisions/s",
                        "p50 us", "p99 us", "p99.9 us", "Redis CPU us/decision");
                String incrScript = sync.scriptLoad("return redis.call('INCR', KEYS[1])");
                String[] floorKey = {"script-floor"};
                for (int threads : new int[] {1, 4, 16}) {
                    measure("INCR floor, hot key", threads, seconds, t -> sync.incr("floor"));
                    measure("EVALSHA of INCR, hot key", threads, seconds,
                            t -> sync.evalsha(incrScript, ScriptOutputType.INTEGER, floorKey));
                    measure("Sluice token bucket, hot key", threads, seconds, t -> plain.tryAcquire(1L));
                    measure("Sluice token bucket, 100k keys", threads, seconds,
                            t -> plain.tryAcquire(ThreadLocalRandom.current().nextLong(100_000)));
                    measure("Sluice + leasing(100), hot key", threads, seconds, t -> leasing.tryAcquire(1L));
                    measure("Sluice coalescing(64), hot key", threads, seconds, t -> coalescing.tryAcquire(1L));
                }
                measure("INCR floor, 10k keys", 16, seconds,
                        t -> sync.incr("floor" + ThreadLocalRandom.current().nextInt(10_000)));
                measure("Sluice token bucket, 10k keys", 16, seconds,
                        t -> plain.tryAcquire(ThreadLocalRandom.current().nextLong(10_000)));
                measure("Sluice coalescing(64), 10k keys", 16, seconds,
                        t -> coalescing.tryAcquire(ThreadLocalRandom.current().nextLong(10_000)));
                System.out.printf(Locale.ROOT, "coalescing: %d round trips, %d requests decided together%n",
                        coalescing.roundTrips(), coalescing.coalesced());
                bucket4j(client, seconds);
                denials(connection, seconds);
                pipelined(plain, seconds, 128);
                System.out.printf(Locale.ROOT, "failures=%d, round trips with leasing=%d, lease hits=%d%n",
                        plain.failures() + leasing.failures() + coalescing.failures(), leasing.roundTrips(),
                        leasing.leaseHits());
                plain.close();
                coalescing.close();
                leasing.close();
            } finally {
                client.shutdown();
            }
        }
    }

    /** Hot key at 10 per second (nearly every request denied) and 10,000 drained keys, memo of denials off and on. */
    private static void denials(StatefulRedisConnection<String, String> connection, int seconds)
            throws InterruptedException {
        RateLimitConfig tenPerSecond = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
        RateLimitConfig drained = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1, Duration.ofHours(1));
        for (int slots : new int[] {0, RedisRateLimiter.DEFAULT_MEMO_SLOTS, 16384}) {
            String memo = slots == 0 ? "memo off" : "memo " + slots;
            try (RedisRateLimiter hot = RedisRateLimiter.builder(tenPerSecond, connection).keyPrefix("deny" + slots + ":")
                    .timeout(Duration.ofSeconds(5)).denyMemo(slots).build();
                    RedisRateLimiter many = RedisRateLimiter.builder(drained, connection).keyPrefix("drained" + slots + ":")
                            .timeout(Duration.ofSeconds(5)).denyMemo(slots).build()) {
                for (int threads : new int[] {1, 4, 16}) {
                    measure("hot key 10/s, " + memo, threads, seconds, t -> hot.tryAcquire(1L));
                }
                for (long k = 0; k < 10_000; k++) {
                    many.tryAcquire(k);
                }
                measure("10k drained keys, " + memo, 16, seconds,
                        t -> many.tryAcquire(ThreadLocalRandom.current().nextLong(10_000)));
                System.out.printf(Locale.ROOT, "  %s: round trips %d, memo hits %d%n", memo,
                        hot.roundTrips() + many.roundTrips(), hot.memoHits() + many.memoHits());
            }
        }
    }

    private static RedisCommands<String, String> redis;

    /** Bucket4j on Redis through Lettuce, built as its documentation shows, on the same deny and allow cells. */
    private static void bucket4j(RedisClient client, int seconds) throws InterruptedException {
        try (StatefulRedisConnection<String, byte[]> c = client.connect(
                RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
            LettuceBasedProxyManager<String> proxy = Bucket4jLettuce.casBasedBuilder(c)
                    .expirationAfterWrite(ExpirationAfterWriteStrategy
                            .basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                    .build();
            BucketConfiguration open = BucketConfiguration.builder()
                    .addLimit(l -> l.capacity(10_000_000).refillGreedy(10_000_000, Duration.ofSeconds(10))).build();
            BucketConfiguration tenPerSecond = BucketConfiguration.builder()
                    .addLimit(l -> l.capacity(10).refillGreedy(10, Duration.ofSeconds(1))).build();
            Bucket allowed = proxy.builder().build("b4j-open", () -> open);
            Bucket denied = proxy.builder().build("b4j-ten", () -> tenPerSecond);
            for (int threads : new int[] {1, 4, 16}) {
                measure("Bucket4j, hot key (allowed)", threads, seconds, t -> allowed.tryConsume(1));
                measure("Bucket4j, hot key 10/s", threads, seconds, t -> denied.tryConsume(1));
            }
        }
    }

    /** Redis's own CPU time (user + system), in microseconds, from INFO cpu. */
    private static long redisCpuMicros() {
        double total = 0;
        for (String line : redis.info("cpu").split("\\r?\\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                total += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return (long) (total * 1_000_000);
    }

    private static void measure(String name, int threads, int seconds, Call call) throws InterruptedException {
        run(threads, 1, call); // warm-up
        long cpuBefore = redisCpuMicros();
        List<Histogram> histograms = new ArrayList<>();
        LongAdder count = new LongAdder();
        List<Thread> workers = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (int t = 0; t < threads; t++) {
            Histogram h = new Histogram(3);
            histograms.add(h);
            int id = t;
            Thread worker = new Thread(() -> {
                long n = 0;
                for (long now = System.nanoTime(); now < end; ) {
                    call.run(id);
                    long after = System.nanoTime();
                    h.recordValue((after - now) / 1000);
                    now = after;
                    n++;
                }
                count.add(n);
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        Histogram all = new Histogram(3);
        histograms.forEach(all::add);
        long cpu = redisCpuMicros() - cpuBefore;
        System.out.printf(Locale.ROOT, "%-34s %8d %14.0f %8d %8d %8d %12.2f%n", name, threads,
                count.sum() / (double) seconds, all.getValueAtPercentile(50), all.getValueAtPercentile(99),
                all.getValueAtPercentile(99.9), cpu / (double) count.sum());
    }

    private static void run(int threads, int seconds, Call call) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread worker = new Thread(() -> {
                while (System.nanoTime() < end) {
                    call.run(id);
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
    }

    /** One thread keeps {@code inFlight} async decisions outstanding on the shared connection. */
    private static void pipelined(RedisRateLimiter limiter, int seconds, int inFlight) throws InterruptedException {
        Semaphore window = new Semaphore(inFlight);
        LongAdder done = new LongAdder();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < end) {
            window.acquire();
            CompletionStage<Boolean> f = limiter.tryAcquireAsync(ThreadLocalRandom.current().nextLong(100_000), 1);
            f.whenComplete((ok, e) -> {
                done.increment();
                window.release();
            });
        }
        window.acquire(inFlight);
        double elapsed = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%-34s %8s %14.0f %10s%n", "Sluice async, " + inFlight + " in flight", "1",
                done.sum() / elapsed, "-");
    }
}
