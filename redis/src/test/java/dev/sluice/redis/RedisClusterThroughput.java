package dev.sluice.redis;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongPredicate;
import org.HdrHistogram.Histogram;

/**
 * Decisions per second against a Redis Cluster of 1 master and one of 3 masters, both started on loopback by this
 * program, side by side: the token-bucket script on one hot key (one slot, so one master, whatever the cluster's
 * size) and on 10,000 keys (spread over every master), and the plain {@code INCR} on the same 10,000 keys as the
 * one-round-trip floor. One Lettuce cluster connection per cluster, shared by the threads (it keeps one connection
 * per master). Indicative, not a JMH run: a warm-up second, then a fixed time per cell, p50/p99 from an
 * HdrHistogram of each call's latency.
 *
 * <p>Run (from the repository root, after {@code mvn -B -q -pl redis -am test-compile}): see
 * {@code redis/docs/cluster.md}; the only argument is the measured seconds per cell (default 3).
 */
public final class RedisClusterThroughput {

    private static final RateLimitConfig RATE =
            RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10_000_000, Duration.ofSeconds(10));
    private static final int KEYS = 10_000;
    private static final int[] MASTERS = {1, 3};

    private enum Target { HOT_KEY, MANY_KEYS, INCR_FLOOR }

    /** One row of the table: what each call does, by how many threads. */
    private record Cell(String name, int threads, Target target) {
        /** A call on key {@code k} of the 10,000 (the hot key ignores it). */
        LongPredicate call(RedisRateLimiter limiter, RedisAdvancedClusterCommands<String, String> sync) {
            switch (target) {
                case HOT_KEY:
                    return k -> limiter.tryAcquire("hot", 1, 0);
                case MANY_KEYS:
                    return k -> limiter.tryAcquire(k, 1, 0);
                default:
                    return k -> sync.incr("floor{" + k + "}") > 0;
            }
        }
    }

    private static final List<Cell> CELLS = List.of(
            new Cell("Sluice token bucket, hot key", 1, Target.HOT_KEY),
            new Cell("Sluice token bucket, hot key", 16, Target.HOT_KEY),
            new Cell("Sluice token bucket, 10,000 keys", 16, Target.MANY_KEYS),
            new Cell("INCR floor, 10,000 keys", 16, Target.INCR_FLOOR));

    private RedisClusterThroughput() {
    }

    public static void main(String[] args) throws InterruptedException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        List<RedisTestCluster> clusters = new ArrayList<>();
        List<RedisClusterClient> clients = new ArrayList<>();
        List<StatefulRedisClusterConnection<String, String>> connections = new ArrayList<>();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        try {
            for (int masters : MASTERS) {
                RedisTestCluster cluster = RedisTestCluster.start(masters);
                clusters.add(cluster);
                RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.seed()));
                client.setOptions(RedisSlotMigrationTest.options(true));
                clients.add(client);
                StatefulRedisClusterConnection<String, String> connection = client.connect();
                connections.add(connection);
                limiters.add(RedisRateLimiter.builder(RATE, connection).timeout(Duration.ofSeconds(5)).build());
            }
            Cell warmUp = CELLS.get(2);
            for (int m = 0; m < MASTERS.length; m++) {
                measure(warmUp.call(limiters.get(m), connections.get(m).sync()), warmUp.threads(), 2);
            }
            System.out.println("| cell | threads | 1 master | 3 masters |");
            System.out.println("| --- | --- | --- | --- |");
            for (Cell cell : CELLS) {
                String[] results = new String[MASTERS.length];
                for (int m = 0; m < MASTERS.length; m++) { // cell by cell, so both see the same machine
                    results[m] = measure(cell.call(limiters.get(m), connections.get(m).sync()), cell.threads(),
                            seconds);
                }
                System.out.printf(Locale.ROOT, "| %s | %d | %s | %s |%n", cell.name(), cell.threads(), results[0],
                        results[1]);
            }
            for (int m = 0; m < MASTERS.length; m++) {
                System.out.printf(Locale.ROOT, "%d master(s): failures=%d%n", MASTERS[m], limiters.get(m).failures());
            }
        } finally {
            limiters.forEach(RedisRateLimiter::close);
            connections.forEach(StatefulRedisClusterConnection::close);
            clients.forEach(RedisClusterClient::shutdown);
            clusters.forEach(RedisTestCluster::close);
        }
    }

    /** "decisions/s (p50 / p99 us)" of {@code threads} threads calling on random keys for {@code seconds}. */
    private static String measure(LongPredicate call, int threads, int seconds) throws InterruptedException {
        run(call, threads, TimeUnit.SECONDS.toNanos(1), new Histogram(3), new LongAdder()); // warm-up
        Histogram all = new Histogram(3);
        LongAdder count = new LongAdder();
        run(call, threads, TimeUnit.SECONDS.toNanos(seconds), all, count);
        return String.format(Locale.ROOT, "%,.0f (%d / %d)", count.sum() / (double) seconds,
                all.getValueAtPercentile(50), all.getValueAtPercentile(99));
    }

    private static void run(LongPredicate call, int threads, long nanos, Histogram all, LongAdder count)
            throws InterruptedException {
        long end = System.nanoTime() + nanos;
        List<Thread> workers = new ArrayList<>();
        List<Histogram> histograms = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Histogram h = new Histogram(3);
            histograms.add(h);
            Thread worker = new Thread(() -> {
                long n = 0;
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (long now = System.nanoTime(); now < end; n++) {
                    call.test(random.nextInt(KEYS));
                    long after = System.nanoTime();
                    h.recordValue((after - now) / 1000);
                    now = after;
                }
                count.add(n);
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        histograms.forEach(all::add);
    }
}
