package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A slot moved from one master to another of a real 3-master cluster (CLUSTER SETSLOT IMPORTING / MIGRATING,
 * MIGRATE key by key, SETSLOT NODE on every master) while eight threads decide on keys of that slot. Lettuce follows
 * the ASK redirects of the move and the MOVED redirects after it, so decisions go on in Redis with no failure: the
 * state moves with MIGRATE and the totals stay exact. A composite key (SLIDING_WINDOW_LOG's two keys) split by the move
 * gets TRYAGAIN, which the failure policy decides, in time.
 */
class RedisSlotMigrationTest {

    private static final int FROM = 0;
    private static final int TO = 1;
    private static final int THREADS = 8;
    private static final int KEYS = 8;
    private static final long LIMIT = 100;
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    /** Scheduling slack on a busy machine on top of the timeout; a call that waits longer has hung. */
    private static final long SLACK_NANOS = 1_000_000_000L;

    /** The cluster of the tests' redis-server binary; {@link RedisSevenSlotMigrationTest} starts another. */
    static RedisTestCluster cluster;
    private static final Set<Integer> moved = new HashSet<>();

    @BeforeAll
    static void start() {
        cluster = RedisTestCluster.start(3);
    }

    @AfterAll
    static void stop() {
        moved.clear();
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    /**
     * Options for a limiter's cluster client: commands fail at once while disconnected, and a MOVED redirect
     * (the slot map changed) refreshes the topology so that later calls go straight to the new master.
     */
    static ClusterClientOptions options(boolean refreshOnMoved) {
        ClusterTopologyRefreshOptions.Builder refresh = ClusterTopologyRefreshOptions.builder();
        if (refreshOnMoved) {
            refresh.enableAdaptiveRefreshTrigger(RefreshTrigger.MOVED_REDIRECT, RefreshTrigger.PERSISTENT_RECONNECTS)
                    .adaptiveRefreshTriggersTimeout(Duration.ofMillis(100));
        }
        return ClusterClientOptions.builder()
                .maxRedirects(5)
                .topologyRefreshOptions(refresh.build())
                .disconnectedBehavior(ClusterClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build();
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aSlotMovedMidRunKeepsEveryDecisionInRedisInTimeAndTheTotalsExact(Algorithm algorithm) {
        run(algorithm, true);
    }

    @Test
    void withoutTopologyRefreshEveryCallAfterTheMoveFollowsMovedAndStaysExact() {
        run(Algorithm.FIXED_WINDOW, false);
    }

    private static void run(Algorithm algorithm, boolean refreshOnMoved) {
        String tag = tagOn(FROM, "mig-" + algorithm + "-" + refreshOnMoved);
        int slot = SlotHash.getSlot(tag);
        RateLimitConfig config = RateLimitConfig.of(algorithm, LIMIT, Duration.ofHours(1));
        ManualClock clock = new ManualClock();
        clock.setNanos(1_000_000_000_000L); // fixed for the whole run: the totals are the limit, exactly
        RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.seed()));
        client.setOptions(options(refreshOnMoved));
        long askingBefore = cluster.calls(TO, "asking");
        try (StatefulRedisClusterConnection<String, String> connection = client.connect();
                RedisRateLimiter limiter = RedisRateLimiter.builder(config, connection).keyPrefix("mig:")
                        .timeout(TIMEOUT).failurePolicy(FailurePolicy.FAIL_CLOSED).denyMemo(0).clock(clock)
                        .callerTimeForTests().build()) {
            Traffic traffic = new Traffic(limiter, tag, clock.nanoTime());
            traffic.start();
            traffic.awaitDecisions(100);
            long admittedBefore = traffic.admitted();

            cluster.beginMove(slot, FROM, TO);
            traffic.awaitDecisions(traffic.decisions() + 50);
            Map<String, List<String>> byKey = byLogicalKey(cluster.keysIn(slot, FROM));
            assertEquals(KEYS, byKey.size(), "every key was decided before the move: " + byKey.keySet());
            for (Map.Entry<String, List<String>> key : byKey.entrySet()) {
                cluster.migrate(FROM, TO, key.getValue()); // a composite key's parts move together
                int k = Integer.parseInt(key.getKey().substring(1));
                long seen = traffic.decisionsOn(k);
                traffic.await(() -> traffic.decisionsOn(k) > seen + THREADS); // some were sent after the MIGRATE
            }
            assertEquals(List.of(), cluster.keysIn(slot, FROM));
            long admittedDuring = traffic.admitted() - admittedBefore;
            long askingDuring = cluster.calls(TO, "asking") - askingBefore;
            cluster.endMove(slot, FROM, TO);
            long evalsOnTarget = evals(TO);
            traffic.awaitDecisions(traffic.decisions() + 400);
            traffic.stop();

            assertTrue(traffic.slowest() < TIMEOUT.toNanos() + SLACK_NANOS, "slowest call " + traffic.slowest());
            assertEquals(0, limiter.failures(), "every redirect was followed: no decision by the failure policy");
            assertTrue(askingDuring > 0, "keys already moved were decided on the target through ASK");
            assertTrue(evals(TO) > evalsOnTarget, "after the move, decisions run on the new master");
            assertTrue(admittedDuring > 0, "admissions went on while the slot was migrating");
            for (int k = 0; k < KEYS; k++) {
                assertEquals(LIMIT, traffic.admittedOn(k), "key " + k + ": its state moved with it");
                assertTrue(traffic.decisionsOn(k) > LIMIT, "key " + k + " was asked past its limit");
            }
            for (String redisKey : byKey.values().stream().flatMap(List::stream).toList()) {
                assertEquals(":1", cluster.server(TO).command("EXISTS " + redisKey), redisKey + " on the new master");
                assertTrue(cluster.server(FROM).command("EXISTS " + redisKey).startsWith("-MOVED " + slot + " "),
                        "the old master redirects " + redisKey);
            }
        } finally {
            client.shutdown();
        }
    }

    /**
     * SLIDING_WINDOW_LOG keeps a key's log and sequence in two Redis keys. While only one of them has moved, and
     * for a new key while the slot is migrating, Redis answers TRYAGAIN (a multi-key command whose keys are not all
     * on one node): Lettuce does not retry that, so the failure policy decides, at once.
     * Once both parts have moved the key is decided again through ASK, with its count.
     */
    @Test
    void aCompositeKeySplitByTheMoveMeetsTheFailurePolicyInTimeThenGoesOnWithItsCount() {
        String tag = tagOn(FROM, "split");
        int slot = SlotHash.getSlot(tag);
        RateLimitConfig config = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 5, Duration.ofHours(1));
        RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.seed()));
        client.setOptions(options(true));
        try (StatefulRedisClusterConnection<String, String> connection = client.connect();
                RedisRateLimiter limiter = RedisRateLimiter.builder(config, connection).keyPrefix("split:")
                        .timeout(TIMEOUT).failurePolicy(FailurePolicy.FAIL_CLOSED).denyMemo(0).build()) {
            Decision d = new Decision();
            assertTrue(limiter.tryAcquire(tag, "old", 2, 0, d));
            cluster.beginMove(slot, FROM, TO);
            List<String> parts = cluster.keysIn(slot, FROM);
            assertEquals(2, parts.size(), "the log and its sequence: " + parts);
            String log = parts.stream().filter(p -> p.contains("|")).findFirst().orElseThrow();
            cluster.migrate(FROM, TO, List.of(log));

            long asking = cluster.calls(TO, "asking");
            assertDecidedByThePolicyInTime(limiter, tag, "old", 1);
            long partlyMoved = cluster.calls(TO, "asking") - asking;
            // Redis 6.2 sends ASK for it and the target says TRYAGAIN; Redis 7 says TRYAGAIN on the source.
            assertEquals(cluster.majorVersion() >= 7 ? 0 : 1, partlyMoved, "ASKING sent for a partly moved key");
            assertDecidedByThePolicyInTime(limiter, tag, "new", 2);
            assertEquals(asking + partlyMoved + 1, cluster.calls(TO, "asking"),
                    "a new key: the source sent ASK, the target said TRYAGAIN");

            cluster.migrate(FROM, TO, cluster.keysIn(slot, FROM));
            assertTrue(limiter.tryAcquire(tag, "old", 1, 0, d), "both parts moved: decided on the target");
            assertEquals(2, d.remaining(), "with the count it had before the move");
            assertDecidedByThePolicyInTime(limiter, tag, "new", 3);


            cluster.endMove(slot, FROM, TO);
            for (String part : parts) {
                long ttl = Long.parseLong(cluster.server(TO).command("PTTL " + part).substring(1));
                assertTrue(ttl > 0 && ttl <= 3_600_000, part + " moved with its expiry, was " + ttl + " ms");
            }
            assertTrue(limiter.tryAcquire(tag, "new", 5, 0, d), "the slot is stable again: new keys are created");
            assertTrue(limiter.tryAcquire(tag, "old", 2, 0, d));
            assertFalse(limiter.tryAcquire(tag, "old", 1, 0, d), "exactly the limit over the whole move");
            assertEquals(3, limiter.failures());
        } finally {
            client.shutdown();
        }
    }

    /** A single-key algorithm's new key in a migrating slot: ASK sends it to the target, where it is created. */
    @Test
    void aNewSingleKeyInAMigratingSlotIsCreatedOnTheTarget() {
        String tag = tagOn(FROM, "fresh");
        int slot = SlotHash.getSlot(tag);
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 3, Duration.ofHours(1));
        RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.seed()));
        client.setOptions(options(true));
        try (StatefulRedisClusterConnection<String, String> connection = client.connect();
                RedisRateLimiter limiter = RedisRateLimiter.builder(config, connection).keyPrefix("fresh:")
                        .timeout(TIMEOUT).denyMemo(0).build()) {
            cluster.beginMove(slot, FROM, TO);
            assertTrue(limiter.tryAcquire(tag, "k", 3, 0, null));
            assertFalse(limiter.tryAcquire(tag, "k", 1, 0, null));
            assertEquals(List.of(), cluster.keysIn(slot, FROM), "nothing was written on the source");
            assertEquals(1, cluster.node(TO).clusterCountKeysInSlot(slot), "the key lives on the target");
            cluster.endMove(slot, FROM, TO);
            assertFalse(limiter.tryAcquire(tag, "k", 1, 0, null));
            assertEquals(0, limiter.failures());
        } finally {
            client.shutdown();
        }
    }

    private static void assertDecidedByThePolicyInTime(RedisRateLimiter limiter, String tag, String key,
            long failures) {
        Decision d = new Decision();
        long begin = System.nanoTime();
        assertFalse(limiter.tryAcquire(tag, key, 1, 0, d), "FAIL_CLOSED denies");
        long took = System.nanoTime() - begin;
        assertEquals(failures, limiter.failures(), key + ": TRYAGAIN is a failure");
        assertEquals(TIMEOUT.toNanos(), d.retryAfterNanos(), "the policy's answer, not Redis's");
        assertTrue(took < TIMEOUT.toNanos(), "answered as soon as Redis said TRYAGAIN, took " + took + " ns");
    }

    /** EVALSHA and EVAL calls served by master {@code i}. */
    private static long evals(int i) {
        return cluster.calls(i, "evalsha") + cluster.calls(i, "eval");
    }

    /** A hash tag on master {@code master} whose slot no earlier test has moved. */
    private static String tagOn(int master, String base) {
        for (int i = 0;; i++) {
            String tag = base + i;
            int slot = SlotHash.getSlot(tag);
            if (cluster.masterOf(slot) == master && moved.add(slot)) {
                return tag;
            }
        }
    }

    /** The Redis keys of a slot grouped by the limiter's key ("k3"): a log's two keys form one group. */
    private static Map<String, List<String>> byLogicalKey(List<String> redisKeys) {
        Map<String, List<String>> groups = new TreeMap<>();
        for (String key : redisKeys) {
            groups.computeIfAbsent(key.substring(key.lastIndexOf('}') + 1), g -> new ArrayList<>()).add(key);
        }
        return groups;
    }

    /** Eight threads deciding round the keys {@code (tag, k0..k7)} at one fixed time until stopped. */
    private static final class Traffic {
        private final RedisRateLimiter limiter;
        private final String tag;
        private final long now;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLongArray decided = new AtomicLongArray(KEYS);
        private final AtomicLongArray admitted = new AtomicLongArray(KEYS);
        private final AtomicLong slowest = new AtomicLong();
        private final List<Thread> threads = new ArrayList<>();

        Traffic(RedisRateLimiter limiter, String tag, long now) {
            this.limiter = limiter;
            this.tag = tag;
            this.now = now;
        }

        void start() {
            for (int t = 0; t < THREADS; t++) {
                int first = t;
                Thread thread = new Thread(() -> loop(first), "decide-" + t);
                thread.setDaemon(true); // a failed assertion must not leave the test JVM running
                thread.start();
                threads.add(thread);
            }
        }

        /** Half the threads block, half go async; each call's wall time is recorded. */
        private void loop(int first) {
            Decision d = new Decision();
            boolean async = first % 2 == 1;
            for (int i = first; running.get(); i++) {
                int k = i % KEYS;
                long begin = System.nanoTime();
                boolean allowed = async
                        ? limiter.decideAsync(tag, "k" + k, 1).toCompletableFuture().join().allowed()
                        : limiter.tryAcquire(tag, "k" + k, 1, now, d);
                slowest.accumulateAndGet(System.nanoTime() - begin, Math::max);
                if (allowed) {
                    admitted.incrementAndGet(k);
                }
                decided.incrementAndGet(k);
            }
        }

        void stop() {
            running.set(false);
            for (Thread thread : threads) {
                try {
                    thread.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                assertFalse(thread.isAlive(), thread.getName() + " hangs");
            }
        }

        long decisionsOn(int k) {
            return decided.get(k);
        }

        long admittedOn(int k) {
            return admitted.get(k);
        }

        long decisions() {
            long sum = 0;
            for (int k = 0; k < KEYS; k++) {
                sum += decided.get(k);
            }
            return sum;
        }

        long admitted() {
            long sum = 0;
            for (int k = 0; k < KEYS; k++) {
                sum += admitted.get(k);
            }
            return sum;
        }

        long slowest() {
            return slowest.get();
        }

        void awaitDecisions(long n) {
            await(() -> decisions() >= n);
        }

        /** Waits (at most 30 s) for the traffic to reach a point; the threads' progress is all it waits for. */
        void await(BooleanSupplier reached) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!reached.getAsBoolean()) {
                assertTrue(System.nanoTime() < deadline, "the traffic stopped making progress");
                LockSupport.parkNanos(1_000_000); // polling, not timing: the decisions run at a fixed clock
            }
        }
    }
}
