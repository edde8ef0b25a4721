package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Coalescing on a real Redis, time frozen (caller time): each coalesced request is decided as it would have been
 * alone in Redis's order, totals are exact across instances, round trips drop under concurrency, and cold keys leave
 * nothing behind.
 */
class RedisCoalescingTest {

    private static final long NOW = 5_000_000_000L;

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    /** A request and the decision it got. */
    private record Outcome(long permits, Decision decision) {
        /** What the key had left when Redis decided this request: on a frozen clock this orders the decisions. */
        long remainingBefore() {
            return decision.allowed() ? decision.remaining() + permits : decision.remaining();
        }
    }

    /**
     * On a frozen clock the key's remaining permits only fall, by each admission's weight, so the remaining each
     * request saw orders the decisions as Redis made them (denials, which change nothing, first among equals).
     * Replayed one by one in that order on a limiter without coalescing, every request gets the same decision,
     * field by field.
     */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void eachCoalescedRequestIsDecidedAsAloneInRedisOrder(Algorithm algorithm) throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 200, Duration.ofMinutes(1));
        List<Outcome> outcomes;
        long coalesced;
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection()).keyPrefix("order-" + algorithm
                + ":").timeout(Duration.ofSeconds(5)).denyMemo(0).coalesce(64).callerTimeForTests().build()) {
            outcomes = hammer(limiter, 8, 60, true);
            assertEquals(0, limiter.failures());
            coalesced = limiter.coalesced();
        }
        assertTrue(coalesced > 0, "requests were coalesced");
        long admitted = outcomes.stream().filter(o -> o.decision.allowed()).mapToLong(Outcome::permits).sum();
        assertTrue(admitted <= config.burst(), "never more than the limit: " + admitted);
        assertTrue(admitted > config.burst() - 4, "the limit is used up to less than one request's weight");
        outcomes.sort(Comparator.comparingLong(Outcome::remainingBefore).reversed()
                .thenComparing(o -> o.decision.allowed()));
        try (RedisRateLimiter alone = RedisRateLimiter.builder(config, server.connection()).keyPrefix("replay-" + algorithm
                + ":").timeout(Duration.ofSeconds(5)).denyMemo(0).callerTimeForTests().build()) {
            Decision d = new Decision();
            for (int i = 0; i < outcomes.size(); i++) {
                Outcome o = outcomes.get(i);
                alone.tryAcquire("hot", o.permits, NOW, d);
                assertEquals(d.toString(), o.decision.toString(), "request " + i + " of the replay");
            }
        }
    }

    /** Three instances with their own connections, coalescing, one key: exactly the limit in total. */
    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void instancesCoalescingAdmitExactlyTheLimitTogether(Algorithm algorithm) throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 150, Duration.ofMinutes(1));
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            StatefulRedisConnection<String, String> c = server.client().connect();
            connections.add(c);
            limiters.add(RedisRateLimiter.builder(config, c).keyPrefix("instances-" + algorithm + ":")
                    .timeout(Duration.ofSeconds(5)).coalesce(32).callerTimeForTests().build());
        }
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (RedisRateLimiter limiter : limiters) {
            for (int t = 0; t < 4; t++) {
                threads.add(started(() -> {
                    await(start);
                    for (int i = 0; i < 40; i++) {
                        if (limiter.tryAcquire("hot", 1, NOW)) {
                            admitted.incrementAndGet();
                        }
                    }
                }));
            }
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        long coalesced = 0;
        for (RedisRateLimiter limiter : limiters) {
            assertEquals(0, limiter.failures());
            coalesced += limiter.coalesced();
            limiter.close();
        }
        connections.forEach(StatefulRedisConnection::close);
        assertEquals(150, admitted.get(), "no over- and no under-admission");
        assertTrue(coalesced > 0, "requests were coalesced");
    }

    @Test
    void roundTripsFallBelowHalfTheDecisionsWithSixteenThreadsOnOneKey() throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000, Duration.ofHours(1));
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection()).keyPrefix("trips16:")
                .timeout(Duration.ofSeconds(5)).coalesce(64).callerTimeForTests().build()) {
            List<Outcome> outcomes = hammer(limiter, 16, 200, false);
            assertEquals(3200, outcomes.size());
            assertTrue(outcomes.stream().allMatch(o -> o.decision.allowed()));
            assertEquals(0, limiter.failures());
            assertTrue(limiter.roundTrips() < 3200 / 2, "round trips " + limiter.roundTrips() + " for 3200");
        }
    }

    @Test
    void oneThreadMakesOneRoundTripPerDecision() throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000, Duration.ofHours(1));
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection()).keyPrefix("trips1:")
                .timeout(Duration.ofSeconds(5)).coalesce(64).callerTimeForTests().build()) {
            hammer(limiter, 1, 300, false);
            assertEquals(300, limiter.roundTrips());
            assertEquals(0, limiter.coalesced());
        }
    }

    @Test
    void aHundredThousandColdKeysLeaveNoEntryBehind() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1));
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection()).keyPrefix("cold:")
                .timeout(Duration.ofSeconds(30)).coalesce(16).build()) {
            List<CompletableFuture<Decision>> pending = new ArrayList<>();
            int most = 0;
            for (int i = 0; i < 100_000; i++) {
                pending.add(limiter.decideAsync("user" + i, 1).toCompletableFuture());
                if (pending.size() == 1000) {
                    most = Math.max(most, limiter.coalescingKeys());
                    pending.forEach(f -> assertTrue(f.join().allowed()));
                    pending.clear();
                }
            }
            assertTrue(most <= 1000, "at most the keys with a call in flight: " + most);
            assertEquals(0, limiter.coalescingKeys(), "every key went cold and left");
            assertEquals(0, limiter.failures());
        }
    }

    /** The memo of denials and release keep working with coalescing on. */
    @Test
    void denyMemoAndReleaseWorkWithCoalescing() throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 50, Duration.ofMinutes(1));
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection()).keyPrefix("memo:")
                .timeout(Duration.ofSeconds(5)).coalesce(16).callerTimeForTests().build()) {
            List<Outcome> outcomes = hammer(limiter, 8, 20, false);
            assertEquals(50, outcomes.stream().filter(o -> o.decision.allowed()).count());
            assertTrue(limiter.memoHits() > 0, "later denials answered by the memo");
            limiter.release("hot", 3, NOW);
            assertTrue(limiter.tryAcquire("hot", 3, NOW), "a release silences the memo and gives back");
            assertFalse(limiter.tryAcquire("hot", 1, NOW));
        }
    }

    @Test
    void coalescingIsConfiguredWithinRangeAndNotWithLeasing() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofSeconds(1));
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
                () -> RedisRateLimiter.builder(config, server.connection()).coalesce(1));
        assertEquals("coalesce maxBatch must be in [2, 4096] requests, was 1", low.getMessage());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> RedisRateLimiter.builder(config, server.connection()).coalesce(8).leasing(10, Duration.ofSeconds(1))
                        .build());
        assertEquals("coalesce and leasing are exclusive: coalesce maxBatch was 8, lease batch was 10; choose one",
                both.getMessage());
    }

    /**
     * {@code threads} threads each make {@code calls} requests for the key "hot", weights 1 to 4 if {@code mixed},
     * all at {@link #NOW}; every request's decision, in no particular order.
     */
    private static List<Outcome> hammer(RedisRateLimiter limiter, int threads, int calls, boolean mixed)
            throws InterruptedException {
        List<List<Outcome>> all = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Outcome> mine = new ArrayList<>();
            all.add(mine);
            SplittableRandom random = new SplittableRandom(t);
            running.add(started(() -> {
                await(start);
                for (int i = 0; i < calls; i++) {
                    long permits = mixed ? 1 + random.nextInt(4) : 1;
                    Decision d = new Decision();
                    limiter.tryAcquire("hot", permits, NOW, d);
                    mine.add(new Outcome(permits, d));
                }
            }));
        }
        start.countDown();
        for (Thread thread : running) {
            thread.join();
        }
        List<Outcome> outcomes = new ArrayList<>();
        all.forEach(outcomes::addAll);
        return outcomes;
    }

    private static Thread started(Runnable body) {
        Thread thread = new Thread(body);
        thread.start();
        return thread;
    }

    private static void await(CountDownLatch start) {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
