package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Redis killed while sixteen threads coalesce on one key: every request, the ones waiting in the queue included,
 * gets the failure policy within the timeout, with commands rejected while disconnected (the recommended options)
 * and with Lettuce's default of queueing them.
 */
class RedisCoalescingFaultTest {

    private static final Duration TIMEOUT = Duration.ofMillis(150);
    /** The timeout plus scheduling noise on a busy 2-core machine; Lettuce's own default would wait 60 s. */
    private static final long LATE_NANOS = TIMEOUT.toNanos() + TimeUnit.MILLISECONDS.toNanos(1_350);
    private static final int THREADS = 16;
    private static final int CALLS_AFTER_STOP = 5;

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void everyWaitingRequestGetsTheFailurePolicyWithinTheTimeoutWhenRedisStops(boolean rejectWhileDisconnected)
            throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000, Duration.ofHours(1));
        try (RedisServer server = RedisServer.startNew()) {
            RedisClient client = RedisClient.create(server.uri());
            client.setOptions(rejectWhileDisconnected ? RedisRateLimiter.recommendedClientOptions()
                    : ClientOptions.create());
            try (StatefulRedisConnection<String, String> connection = client.connect();
                    RedisRateLimiter limiter = RedisRateLimiter.builder(config, connection).timeout(TIMEOUT)
                            .failurePolicy(FailurePolicy.FAIL_CLOSED).coalesce(32).callerTimeForTests().build()) {
                AtomicLong stoppedAt = new AtomicLong(Long.MAX_VALUE);
                AtomicLong slowest = new AtomicLong();
                AtomicInteger admittedAfterStop = new AtomicInteger();
                CountDownLatch warm = new CountDownLatch(THREADS * 50);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Thread thread = new Thread(() -> {
                        int afterStop = 0;
                        while (afterStop < CALLS_AFTER_STOP) {
                            long start = System.nanoTime();
                            boolean allowed = limiter.tryAcquire("hot", 1, 1_000_000_000L);
                            long took = System.nanoTime() - start;
                            slowest.accumulateAndGet(took, Math::max);
                            if (start > stoppedAt.get()) {
                                afterStop++;
                                if (allowed) {
                                    admittedAfterStop.incrementAndGet();
                                }
                            }
                            warm.countDown();
                        }
                    });
                    thread.start();
                    threads.add(thread);
                }
                assertTrue(warm.await(30, TimeUnit.SECONDS), "traffic before the stop");
                server.stop();
                stoppedAt.set(System.nanoTime());
                List<CompletableFuture<Decision>> async = new ArrayList<>();
                long asyncStart = System.nanoTime();
                for (int i = 0; i < 100; i++) {
                    async.add(limiter.decideAsync("hot", 1).toCompletableFuture());
                }
                for (CompletableFuture<Decision> f : async) {
                    assertFalse(f.join().allowed(), "async requests meet the failure policy");
                }
                assertTrue(System.nanoTime() - asyncStart < LATE_NANOS, "async requests complete within the timeout");
                for (Thread thread : threads) {
                    thread.join();
                }
                assertEquals(0, admittedAfterStop.get(), "FAIL_CLOSED denies every request once Redis is gone");
                assertTrue(limiter.failures() >= THREADS * CALLS_AFTER_STOP + 100, "failures " + limiter.failures());
                assertTrue(slowest.get() < LATE_NANOS, "no request waits past the timeout: " + slowest.get() + " ns");
                assertTrue(limiter.coalesced() > 0, "requests were coalesced before the stop");
            } finally {
                client.shutdown(0, 2, TimeUnit.SECONDS);
            }
        }
    }
}
