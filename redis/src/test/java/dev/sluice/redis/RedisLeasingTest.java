package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Local leasing: fewer round trips, never more than Redis granted within one window, and the documented bound on
 * what leases carry across windows: at most {@code N * (batch - 1)} more than Redis alone would admit.
 */
class RedisLeasingTest {

    private static final long SECOND = 1_000_000_000L;
    private static final RateLimitConfig HUNDRED = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofSeconds(1));

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    @Test
    void aLeaseOfTenServesNineRequestsLocally() {
        try (RedisRateLimiter limiter = leasing(HUNDRED, "trips:", 10, Duration.ofSeconds(10))) {
            for (int i = 0; i < 100; i++) {
                assertTrue(limiter.tryAcquire("k", 1, 0));
            }
            assertTrue(!limiter.tryAcquire("k", 1, 0));
            assertEquals(11, limiter.roundTrips());
            assertEquals(90, limiter.leaseHits());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = "LEAKY_BUCKET", mode = EnumSource.Mode.EXCLUDE)
    void instancesSharingAKeyAdmitExactlyTheLimitWithinOneInstant(Algorithm algorithm) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 100, Duration.ofSeconds(60));
        List<RedisRateLimiter> instances = instances(config, "instant-" + algorithm + ":", 3, 7);
        assertEquals(100, roundRobin(instances, SECOND, 400));
        instances.forEach(RedisRateLimiter::close);
    }

    @Test
    void threadsSharingLeasingInstancesNeverExceedTheLimitWithinOneInstant() throws InterruptedException {
        List<RedisRateLimiter> instances = instances(HUNDRED, "threads:", 2, 10);
        AtomicInteger admitted = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            RedisRateLimiter limiter = instances.get(t % 2);
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    if (limiter.tryAcquire("k", 1, 0)) {
                        admitted.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        // Leases replaced by a concurrent request's are drained: permits may be wasted, never doubled. Redis grants
        // its 100 in round trips of at most 10, each admitting its own request: at least 10 pass.
        assertTrue(admitted.get() <= 100 && admitted.get() >= 10, "admitted " + admitted.get());
        instances.forEach(RedisRateLimiter::close);
    }

    @Test
    void leasesCarryAtMostNTimesBatchMinusOneIntoTheNextWindow() {
        int n = 3;
        int batch = 10;
        List<RedisRateLimiter> instances = instances(HUNDRED, "bound:", n, batch);
        // Window 0: each instance leases 10 and spends 1.
        for (RedisRateLimiter limiter : instances) {
            assertTrue(limiter.tryAcquire("k", 1, 0));
        }
        // Window 1: Redis grants its 100 again, and the 3 * 9 leased permits are still spendable.
        int admitted = roundRobin(instances, SECOND, 400);
        assertEquals(100 + n * (batch - 1), admitted);
        instances.forEach(RedisRateLimiter::close);
    }

    @Test
    void withoutLeasingTheSameTrafficGetsTheLimitOnly() {
        List<RedisRateLimiter> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(RedisRateLimiter.builder(HUNDRED, server.connection()).keyPrefix("control:").timeout(Duration.ofSeconds(10)).callerTimeForTests().build());
        }
        for (RedisRateLimiter limiter : instances) {
            assertTrue(limiter.tryAcquire("k", 1, 0));
        }
        assertEquals(100, roundRobin(instances, SECOND, 400));
        instances.forEach(RedisRateLimiter::close);
    }

    @Test
    void aLeaseOlderThanItsHoldTimeIsNotSpent() {
        try (RedisRateLimiter limiter = leasing(HUNDRED, "hold:", 10, Duration.ofMillis(100))) {
            assertTrue(limiter.tryAcquire("k", 1, 0));
            assertTrue(limiter.tryAcquire("k", 1, 99_000_000L));
            assertEquals(1, limiter.leaseHits());
            assertTrue(limiter.tryAcquire("k", 1, 100_000_000L));
            assertEquals(2, limiter.roundTrips(), "the old lease was dropped and a new one taken");
            // Redis counted both leases: 20 of 100 taken in this window, 19 of them spendable by this instance.
            Decision d = new Decision();
            assertTrue(limiter.tryAcquire("k", 1, 100_000_000L, d));
            assertEquals(8, d.remaining(), "a local decision reports the lease's remaining permits");
        }
    }

    @Test
    void aRequestLargerThanTheBatchTakesWhatItNeeds() {
        try (RedisRateLimiter limiter = leasing(HUNDRED, "large:", 10, Duration.ofSeconds(10))) {
            assertTrue(limiter.tryAcquire("k", 95, 0));
            assertTrue(limiter.tryAcquire("k", 5, 0));
            assertTrue(!limiter.tryAcquire("k", 1, 0));
        }
    }

    @Test
    void leasingRejectsTheLeakyBucket() {
        RedisRateLimiter.Builder b = RedisRateLimiter.builder(
                RateLimitConfig.of(Algorithm.LEAKY_BUCKET, 10, Duration.ofSeconds(1)), server.connection());
        assertThrows(IllegalArgumentException.class, () -> b.leasing(5, Duration.ofSeconds(1)));
    }

    private static RedisRateLimiter leasing(RateLimitConfig config, String prefix, int batch, Duration hold) {
        return RedisRateLimiter.builder(config, server.connection()).keyPrefix(prefix).leasing(batch, hold)
                .timeout(Duration.ofSeconds(10)).callerTimeForTests().build();
    }

    private static List<RedisRateLimiter> instances(RateLimitConfig config, String prefix, int n, int batch) {
        List<RedisRateLimiter> instances = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            instances.add(leasing(config, prefix, batch, Duration.ofSeconds(10)));
        }
        return instances;
    }

    private static int roundRobin(List<RedisRateLimiter> instances, long now, int requests) {
        int admitted = 0;
        for (int i = 0; i < requests; i++) {
            if (instances.get(i % instances.size()).tryAcquire("k", 1, now)) {
                admitted++;
            }
        }
        return admitted;
    }
}
