package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The memo of denials answers only what Redis would answer: the same outcomes with and without it, on random traces
 * and across instances (counted by the clients and read from Redis's own state), a release silences it, and a hit
 * allocates nothing. Time is the caller's ({@code callerTimeForTests()}), so Redis and the memo see one clock.
 */
class RedisDenyMemoTest {

    private static final long SECOND = 1_000_000_000L;

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    private static RedisRateLimiter limiter(RateLimitConfig config, String prefix, int memoSlots) {
        return RedisRateLimiter.builder(config, server.connection()).keyPrefix(prefix).timeout(Duration.ofSeconds(10))
                .denyMemo(memoSlots).callerTimeForTests().build();
    }

    @Test
    void repeatsADenialLocallyWithTheServersRetryAfterCountedDown() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1));
        try (RedisRateLimiter limiter = limiter(config, "repeat:", 64)) {
            Decision d = new Decision();
            assertTrue(limiter.tryAcquire("alice", 2, 0, d));
            assertFalse(limiter.tryAcquire("alice", 1, 0, d));
            Decision fromRedis = new Decision().copyFrom(d);
            long trips = limiter.roundTrips();
            assertFalse(limiter.tryAcquire("alice", 1, 100_000_000L, d));
            assertEquals(trips, limiter.roundTrips(), "answered with no round trip");
            assertEquals(1, limiter.memoHits());
            assertEquals(fromRedis.retryAfterNanos() - 100_000_000L, d.retryAfterNanos());
            assertEquals(fromRedis.resetAfterNanos() - 100_000_000L, d.resetAfterNanos());
            assertEquals(0, d.remaining());
            assertEquals(2, d.limit());
            assertEquals(1, d.permits());
            assertTrue(limiter.tryAcquire("alice", 1, fromRedis.retryAfterNanos(), d), "admitted once it is due");
            assertEquals(trips + 1, limiter.roundTrips());
        }
    }

    @Test
    void asksRedisForALighterRequestAndForAnotherKeyInTheSameSlot() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(1));
        try (RedisRateLimiter limiter = limiter(config, "lighter:", 1)) {
            assertTrue(limiter.tryAcquire("bob", 2, 0));
            assertFalse(limiter.tryAcquire("bob", 2, 0));
            assertTrue(limiter.tryAcquire("bob", 1, 0), "a lighter request goes to Redis and fits");
            assertTrue(limiter.tryAcquire("bobby", 3, 0), "one slot for every key: a different key is not denied");
            assertTrue(limiter.tryAcquire(7L, 1, 0));
            assertTrue(limiter.tryAcquire("bob", "x", 1, 0, null));
        }
    }

    @Test
    void aReleaseOrAnUndoOnThisInstanceSilencesTheMemo() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 2, Duration.ofSeconds(10));
        try (RedisRateLimiter limiter = limiter(config, "release:", 64)) {
            Decision admitted = new Decision();
            assertTrue(limiter.tryAcquire(42L, 1, 0, admitted));
            assertTrue(limiter.tryAcquire(42L, 1, 0));
            assertFalse(limiter.tryAcquire(42L, 1, 0));
            assertFalse(limiter.tryAcquire(42L, 1, 1000));
            assertEquals(1, limiter.memoHits());
            limiter.release(42L, 1, 1000);
            assertTrue(limiter.tryAcquire(42L, 1, 2000), "the release is seen at once");
            assertFalse(limiter.tryAcquire(42L, 1, 3000));
            limiter.undo(42L, admitted);
            assertTrue(limiter.tryAcquire(42L, 1, 4000), "the undo is seen at once");
            assertEquals(1, limiter.memoHits());
        }
    }

    @Test
    void memoSlotsMustBeAPowerOfTwo() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RedisRateLimiter.builder(config, server.connection()).denyMemo(1000));
        assertTrue(e.getMessage().contains("denyMemo"), e.getMessage());
    }

    static Stream<RateLimitConfig> configs() {
        return RedisParityTest.configs();
    }

    /** Same trace on two key spaces, memo off and on: every outcome equal, no retry-after later than Redis's. */
    @ParameterizedTest
    @MethodSource("configs")
    void makesTheSameDecisionsWithAndWithoutTheMemo(RateLimitConfig config) {
        SplittableRandom random = new SplittableRandom(config.toString().hashCode() * 31L);
        long windowMicros = config.windowNanos() / 1000;
        Decision off = new Decision();
        Decision on = new Decision();
        long now = 0;
        int admitted = 0;
        String run = Long.toString(random.nextLong() & Long.MAX_VALUE);
        try (RedisRateLimiter plain = limiter(config, "off" + run + ":", 0);
                RedisRateLimiter memo = limiter(config, "on" + run + ":", 256)) {
            for (int i = 0; i < 1500; i++) {
                int roll = random.nextInt(100);
                now += 1000 * (roll < 3 ? random.nextLong(3 * windowMicros)
                        : random.nextLong(windowMicros / (4L * config.limit()) + 1));
                long key = random.nextInt(3);
                long permits = roll == 50 ? config.burst() + 1 : 1 + random.nextInt(3);
                if (roll >= 97) {
                    plain.release(key, permits, now);
                    memo.release(key, permits, now);
                    continue;
                }
                boolean a = plain.tryAcquire(key, permits, now, off);
                boolean b = memo.tryAcquire(key, permits, now, on);
                String where = "request " + i + " key " + key + " permits " + permits + " at " + now + "ns";
                assertEquals(a, b, where);
                assertTrue(on.retryAfterNanos() <= off.retryAfterNanos(), "never a later retry-after: " + where);
                admitted += a ? 1 : 0;
            }
            assertTrue(memo.memoHits() > 100, "the memo answered " + memo.memoHits());
            assertTrue(admitted > 100, "admitted " + admitted);
        }
    }

    /**
     * Three instances, two threads each, hammer one key at each of 25 instants a refill apart. Per instant, the
     * admissions the clients count and the state Redis holds are the same with the memo as without it.
     */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void instancesAdmitExactlyAsManyWithTheMemoInEveryWindow(Algorithm algorithm) throws Exception {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 20, Duration.ofSeconds(1));
        String run = Long.toString(System.nanoTime());
        Hammer without = new Hammer(config, "x" + run + ":", 0);
        Hammer with = new Hammer(config, "m" + run + ":", 512);
        long total = 0;
        try (without; with) {
            for (int step = 0; step < 25; step++) {
                long t = step * (SECOND / 7);
                int a = without.at(t);
                int b = with.at(t);
                assertEquals(a, b, "admitted at step " + step);
                assertEquals(without.redisState(), with.redisState(), "Redis's own state after step " + step);
                total += a;
            }
            assertTrue(with.memoHits() > without.memoHits() + 1000, "the memo answered " + with.memoHits());
        }
        assertTrue(total >= 20 && total < 25 * 20, "admitted " + total);
    }

    /** Instances with their own connections; {@link #at} makes every thread call a fixed number of times at t. */
    private static final class Hammer implements AutoCloseable {
        private static final int INSTANCES = 3;
        private static final int THREADS = 2;
        private static final int CALLS = 150;

        private final RateLimitConfig config;
        private final String prefix;
        private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        private final List<RedisRateLimiter> limiters = new ArrayList<>();

        Hammer(RateLimitConfig config, String prefix, int memoSlots) {
            this.config = config;
            this.prefix = prefix;
            for (int i = 0; i < INSTANCES; i++) {
                StatefulRedisConnection<String, String> c = server.client().connect();
                connections.add(c);
                limiters.add(RedisRateLimiter.builder(config, c).keyPrefix(prefix).timeout(Duration.ofSeconds(10))
                        .denyMemo(memoSlots).callerTimeForTests().build());
            }
        }

        int at(long t) throws Exception {
            AtomicInteger admitted = new AtomicInteger();
            AtomicLong failures = new AtomicLong();
            CyclicBarrier start = new CyclicBarrier(INSTANCES * THREADS);
            List<Thread> threads = new ArrayList<>();
            for (RedisRateLimiter limiter : limiters) {
                for (int k = 0; k < THREADS; k++) {
                    Thread thread = new Thread(() -> {
                        try {
                            start.await();
                        } catch (Exception e) {
                            failures.incrementAndGet();
                            return;
                        }
                        for (int i = 0; i < CALLS; i++) {
                            if (limiter.tryAcquire("hot", 1, t)) {
                                admitted.incrementAndGet();
                            }
                        }
                    });
                    thread.start();
                    threads.add(thread);
                }
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(0, failures.get());
            for (RedisRateLimiter limiter : limiters) {
                assertEquals(0, limiter.failures());
            }
            return admitted.get();
        }

        long memoHits() {
            return limiters.stream().mapToLong(RedisRateLimiter::memoHits).sum();
        }

        /** The key's state in Redis, as text. */
        String redisState() {
            RedisCommands<String, String> redis = connections.get(0).sync();
            String key = prefix + RedisRateLimiter.defaultNamespace(config) + "|s{hot}";
            switch (config.algorithm()) {
                case TOKEN_BUCKET:
                case LEAKY_BUCKET:
                    return String.valueOf(redis.get(key));
                case SLIDING_WINDOW_LOG:
                    StringBuilder log = new StringBuilder(String.valueOf(redis.get(
                            prefix + RedisRateLimiter.defaultNamespace(config) + "#s{hot}")));
                    for (ScoredValue<String> v : redis.zrangeWithScores(key, 0, -1)) {
                        log.append(' ').append(v.getValue()).append('@').append((long) v.getScore());
                    }
                    return log.toString();
                default:
                    return new java.util.TreeMap<>(redis.hgetall(key)).toString();
            }
        }

        @Override
        public void close() {
            limiters.forEach(RedisRateLimiter::close);
            connections.forEach(StatefulRedisConnection::close);
        }
    }

    /** Many memo hits on one thread: the bytes it allocated, per call, stay at zero. */
    @Test
    void aMemoHitAllocatesNothing() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1, Duration.ofSeconds(100));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        StringBuilder user = new StringBuilder("mallory");
        try (RedisRateLimiter limiter = limiter(config, "alloc:", 64)) {
            Decision d = new Decision();
            assertTrue(limiter.tryAcquire(user, 1, 0, d));
            assertFalse(limiter.tryAcquire(user, 1, 0, d));
            assertTrue(limiter.tryAcquire(9L, 1, 0, d));
            assertFalse(limiter.tryAcquire(9L, 1, 0, d));
            assertTrue(limiter.tryAcquire(user, "api", 1, 0, d));
            assertFalse(limiter.tryAcquire(user, "api", 1, 0, d));
            long trips = limiter.roundTrips();
            int calls = 200_000;
            boolean any = hits(limiter, user, d, calls); // warms up the path
            long before = threads.getCurrentThreadAllocatedBytes();
            any |= hits(limiter, user, d, calls);
            long bytes = threads.getCurrentThreadAllocatedBytes() - before;
            assertFalse(any);
            assertEquals(trips, limiter.roundTrips(), "every call was a memo hit");
            assertTrue(bytes < calls / 100, bytes + " bytes for " + 3 * calls + " memo hits");
        }
    }

    private static boolean hits(RedisRateLimiter limiter, CharSequence user, Decision d, int calls) {
        boolean any = false;
        for (int i = 0; i < calls; i++) {
            any |= limiter.tryAcquire(user, 1, i, d);
            any |= limiter.tryAcquire(9L, 1, i, d);
            any |= limiter.tryAcquire(user, "api", 1, i, d);
        }
        return any;
    }
}
