package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real 3-master Redis Cluster on loopback (the tests' redis-server binary, slots assigned with CLUSTER ADDSLOTS and
 * the nodes joined with CLUSTER MEET): the same decisions as the local engine, exact totals across instances, and the
 * failure policy, in time, for the keys of a master that is killed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterTest {

    private static final int MASTERS = 3;

    private static final List<RedisServer> nodes = new ArrayList<>();
    private static RedisClusterClient cluster;
    private static StatefulRedisClusterConnection<String, String> connection;

    @BeforeAll
    static void startCluster() {
        for (int i = 0; i < MASTERS; i++) {
            nodes.add(RedisServer.startNew(null, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000"));
        }
        for (int i = 0; i < MASTERS; i++) {
            int from = i * 16384 / MASTERS;
            int to = (i + 1) * 16384 / MASTERS;
            RedisClient admin = RedisClient.create(nodes.get(i).uri());
            try (StatefulRedisConnection<String, String> c = admin.connect()) {
                c.sync().clusterAddSlots(IntStream.range(from, to).toArray());
                if (i > 0) {
                    c.sync().clusterMeet("127.0.0.1", nodes.get(0).port());
                }
            } finally {
                admin.shutdown();
            }
        }
        for (RedisServer node : nodes) {
            awaitClusterOk(node);
        }
        cluster = RedisClusterClient.create(RedisURI.create(nodes.get(0).uri()));
        cluster.setOptions(ClusterClientOptions.builder()
                .disconnectedBehavior(ClusterClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
        connection = cluster.connect();
    }

    /** Gossip takes a moment: polls CLUSTER INFO until every slot is served (10 s at most). */
    private static void awaitClusterOk(RedisServer node) {
        RedisClient admin = RedisClient.create(node.uri());
        try (StatefulRedisConnection<String, String> c = admin.connect()) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!c.sync().clusterInfo().contains("cluster_state:ok")) {
                assertTrue(System.nanoTime() < deadline, "cluster_state:ok on port " + node.port());
                Thread.sleep(50);
            }
            assertEquals(MASTERS, c.sync().clusterNodes().lines().filter(l -> l.contains("master")).count());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            admin.shutdown();
        }
    }

    @AfterAll
    static void stopCluster() {
        connection.close();
        cluster.shutdown();
        nodes.forEach(RedisServer::close);
    }

    @Test
    void keysOfOneCallerShareASlotAndCallersSpreadOverEveryMaster() {
        Set<Integer> masters = new HashSet<>();
        for (int u = 0; u < 30; u++) {
            String user = "user" + u;
            int slot = SlotHash.getSlot("sluice:x|p" + user.length() + "{" + user + "}search");
            assertEquals(slot, SlotHash.getSlot("sluice:y|p" + user.length() + "{" + user + "}pay"));
            masters.add(master(slot));
        }
        assertEquals(MASTERS, masters.size());
    }

    /** Twelve configs' traces over many keys, so every master decides some: field by field the local engine's. */
    @Test
    void makesTheSameDecisionsAsTheLocalEngineOnEveryMaster() {
        RedisParityTest.configs().forEach(config -> {
            ManualClock clock = new ManualClock();
            SplittableRandom random = new SplittableRandom(config.toString().hashCode());
            long windowMicros = config.windowNanos() / 1000;
            Decision local = new Decision();
            Decision remote = new Decision();
            try (RateLimiter engine = RateLimiter.create(config, clock);
                    RedisRateLimiter redis = RedisRateLimiter.builder(config, connection)
                            .keyPrefix("cparity" + random.nextLong() + ":").timeout(Duration.ofSeconds(10))
                            .denyMemo(0).callerTimeForTests().build()) {
                for (int i = 0; i < 300; i++) {
                    clock.advanceNanos(1000 * random.nextLong(windowMicros / (config.limit() + 2) + 1));
                    long now = clock.nanoTime();
                    String user = "u" + random.nextInt(12);
                    long permits = 1 + random.nextInt(3);
                    if (random.nextInt(20) == 0) {
                        engine.release(user, "api", permits, now);
                        redis.release(user, "api", permits, now);
                        continue;
                    }
                    assertEquals(engine.tryAcquire(user, "api", permits, now, local),
                            redis.tryAcquire(user, "api", permits, now, remote));
                    assertEquals(local.toString(), remote.toString(), config + " request " + i);
                }
                assertEquals(0, redis.failures());
            }
        });
    }

    /** Four instances, two threads each, one key per master: exactly the limit admitted on each. */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void instancesAdmitExactlyTheLimitOnEveryMaster(Algorithm algorithm) throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 50, Duration.ofHours(1));
        String[] keys = keysOnEveryMaster();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        List<StatefulRedisClusterConnection<String, String>> own = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            StatefulRedisClusterConnection<String, String> c = cluster.connect();
            own.add(c);
            limiters.add(RedisRateLimiter.builder(config, c).keyPrefix("cexact" + algorithm + ":")
                    .timeout(Duration.ofSeconds(5)).build());
        }
        AtomicInteger[] admitted = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (RedisRateLimiter limiter : limiters) {
            for (int t = 0; t < 2; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 60; i++) {
                        for (int k = 0; k < keys.length; k++) {
                            if (limiter.tryAcquire(keys[k], 1, 0)) {
                                admitted[k].incrementAndGet();
                            }
                        }
                    }
                });
                thread.start();
                threads.add(thread);
            }
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        for (int k = 0; k < keys.length; k++) {
            assertEquals(50, admitted[k].get(), "key " + keys[k]);
        }
        for (RedisRateLimiter limiter : limiters) {
            assertEquals(0, limiter.failures());
            limiter.close();
        }
        own.forEach(StatefulRedisClusterConnection::close);
    }

    /** SCRIPT FLUSH on every master: each one's NOSCRIPT is healed by EVAL there, and the counts stay exact. */
    @Test
    void aScriptFlushOnEveryMasterIsHealedWithoutLosingCount() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 3, Duration.ofHours(1));
        String[] keys = keysOnEveryMaster();
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, connection).keyPrefix("cflush:")
                .timeout(Duration.ofSeconds(5)).build()) {
            for (String key : keys) {
                assertTrue(limiter.tryAcquire(key, 2, 0));
            }
            for (RedisServer node : nodes) {
                assertEquals("+OK", node.command("SCRIPT FLUSH"));
            }
            for (String key : keys) {
                assertTrue(limiter.tryAcquire(key, 1, 0));
                assertFalse(limiter.tryAcquire(key, 1, 0));
            }
            assertEquals(MASTERS, limiter.scriptLoads());
            assertEquals(0, limiter.failures());
        }
    }

    /**
     * The last test: the third master is killed mid-run. Its keys are decided by the failure policy within the
     * timeout (blocking and async); the other masters' keys are still decided by Redis.
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void aKilledMasterSKeysMeetTheFailurePolicyInTimeAndTheOthersAreUnaffected() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofHours(1));
        Duration timeout = Duration.ofMillis(200);
        String[] keys = keysOnEveryMaster();
        try (StatefulRedisClusterConnection<String, String> c = cluster.connect();
                RedisRateLimiter limiter = RedisRateLimiter.builder(config, c).keyPrefix("ckill:").timeout(timeout)
                        .failurePolicy(FailurePolicy.FAIL_CLOSED).denyMemo(0).build()) {
            for (String key : keys) {
                assertTrue(limiter.tryAcquire(key, 2, 0));
            }
            nodes.get(MASTERS - 1).stop();
            for (int i = 0; i < 3; i++) {
                long begin = System.nanoTime();
                assertFalse(limiter.tryAcquire(keys[MASTERS - 1], 1, 0));
                Decision d = limiter.decideAsync(keys[MASTERS - 1], 1).toCompletableFuture().join();
                assertFalse(d.allowed());
                assertTrue(System.nanoTime() - begin < 3 * timeout.toNanos(), "decided within the timeouts");
            }
            assertEquals(6, limiter.failures());
            Decision d = new Decision();
            assertFalse(limiter.tryAcquire(keys[0], 1, 0, d));
            assertTrue(d.retryAfterNanos() > timeout.toNanos(), "decided by Redis (the window's end), not the policy");
            assertEquals(6, limiter.failures());
        }
    }

    /** The master that serves a slot: master i was given [i * 16384 / 3, (i + 1) * 16384 / 3). */
    private static int master(int slot) {
        int i = 0;
        while (slot >= (i + 1) * 16384 / MASTERS) {
            i++;
        }
        return i;
    }

    /** One string key per master, in master order. */
    private static String[] keysOnEveryMaster() {
        String[] keys = new String[MASTERS];
        for (int i = 0; keys[MASTERS - 1] == null || keys[0] == null || keys[1] == null; i++) {
            String key = "k" + i;
            int master = master(SlotHash.getSlot("s{" + key + "}"));
            if (keys[master] == null) {
                keys[master] = key;
            }
        }
        return keys;
    }
}
