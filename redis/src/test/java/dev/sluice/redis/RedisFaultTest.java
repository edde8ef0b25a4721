package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Faults on a real server that this test owns: stopped mid-run, restarted empty (scripts gone), SCRIPT FLUSH, and a
 * server too slow to answer (DEBUG SLEEP). Time is frozen for the limits (caller time), so every count is exact;
 * the only waits are for Lettuce to reconnect, bounded.
 */
class RedisFaultTest {

    private static final Duration TIMEOUT = Duration.ofMillis(150);
    /**
     * A decision may take the timeout plus scheduling noise (a GC, a busy 2-core machine), never much more: the
     * bound proves the limiter's timeout cuts the wait, which Lettuce's own default would let run for 60 s.
     */
    private static final long LATE_NANOS = TIMEOUT.toNanos() + TimeUnit.MILLISECONDS.toNanos(1_350);
    private static final long NOW = 1_000_000_000L;
    private static final RateLimitConfig TEN = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10, Duration.ofMinutes(1));

    private RedisServer server;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    @BeforeEach
    void startRedis() {
        server = RedisServer.startNew();
        client = RedisClient.create(server.uri());
        client.setOptions(RedisRateLimiter.recommendedClientOptions());
        connection = client.connect();
    }

    @AfterEach
    void stopRedis() {
        connection.close();
        client.shutdown();
        server.close();
    }

    @Test
    void scriptFlushMidRunIsHealedWithoutLosingCount() {
        RedisRateLimiter limiter = frozen(TEN, FailurePolicy.FAIL_CLOSED);
        assertEquals("YYYY", take(limiter, 4));
        assertEquals("+OK", server.command("SCRIPT FLUSH"));
        assertEquals("YYYYYYN", take(limiter, 7));
        assertEquals(1, limiter.scriptLoads());
        assertEquals(0, limiter.failures());
    }

    @Test
    void failClosedDeniesWithinTheTimeoutWhileRedisIsDownAndRecoversWithScriptsReloaded() {
        RedisRateLimiter limiter = frozen(TEN, FailurePolicy.FAIL_CLOSED);
        assertEquals("YYY", take(limiter, 3));
        server.stop();
        for (int i = 0; i < 5; i++) {
            assertDecidedInTime(() -> !limiter.tryAcquire("k", 1, NOW));
        }
        assertEquals(5, limiter.failures());
        Decision d = new Decision();
        assertFalse(limiter.tryAcquire("k", 1, NOW, d));
        assertEquals(TIMEOUT.toNanos(), d.retryAfterNanos());

        server.start();
        // The restarted server is empty: state and scripts are gone. The first answer from Redis is an admission.
        awaitRecovery(() -> limiter.tryAcquire("k", 1, NOW));
        assertEquals("YYYYYYYYYN", take(limiter, 10));
        assertTrue(limiter.scriptLoads() >= 1, "the script was sent again after the restart");
    }

    @Test
    void failOpenAdmitsWithinTheTimeoutWhileRedisIsDownAndRecovers() {
        RedisRateLimiter limiter = frozen(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofMinutes(1)),
                FailurePolicy.FAIL_OPEN);
        assertEquals("YYN", take(limiter, 3));
        server.stop();
        for (int i = 0; i < 5; i++) {
            assertDecidedInTime(() -> limiter.tryAcquire("k", 1, NOW));
        }
        assertEquals(5, limiter.failures());
        server.start();
        awaitRecovery(() -> {
            long before = limiter.failures();
            limiter.tryAcquire("probe", 1, NOW);
            return limiter.failures() == before;
        });
        assertEquals("YYN", take(limiter, 3), "decided by Redis again: a fresh bucket after the restart");
    }

    /** A denial Redis gave before the outage still answers, at once; any other request meets the failure policy. */
    @Test
    void aRememberedDenialHoldsThroughAnOutage() {
        RedisRateLimiter limiter = RedisRateLimiter.builder(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2,
                Duration.ofMinutes(1)), connection).keyPrefix("outage:").timeout(TIMEOUT)
                .failurePolicy(FailurePolicy.FAIL_OPEN).callerTimeForTests().build();
        assertEquals("YYN", take(limiter, 3));
        server.stop();
        assertFalse(limiter.tryAcquire("k", 1, NOW), "denied from the memo, as Redis had said");
        assertEquals(0, limiter.failures());
        assertEquals(1, limiter.memoHits());
        assertDecidedInTime(() -> limiter.tryAcquire("other", 1, NOW));
        assertEquals(1, limiter.failures());
        limiter.close();
    }

    /** With Lettuce's default options commands queue while disconnected: the timeout still bounds each decision. */
    @Test
    void queuedCommandsDoNotHangPastTheTimeout() {
        RedisClient queueing = RedisClient.create(server.uri());
        try (StatefulRedisConnection<String, String> c = queueing.connect();
                RedisRateLimiter limiter = RedisRateLimiter.builder(TEN, c).timeout(TIMEOUT)
                        .failurePolicy(FailurePolicy.FAIL_CLOSED).build()) {
            assertTrue(limiter.tryAcquire("k"));
            server.stop();
            for (int i = 0; i < 3; i++) {
                assertDecidedInTime(() -> !limiter.tryAcquire("k"));
                long start = System.nanoTime();
                Decision d = limiter.decideAsync("k", 1).toCompletableFuture().join();
                assertTrue(System.nanoTime() - start < LATE_NANOS, "async decision within the timeout");
                assertFalse(d.allowed());
            }
            assertEquals(6, limiter.failures());
        } finally {
            queueing.shutdown();
        }
    }

    @Test
    void slowRedisIsDecidedByThePolicyWithinTheTimeout() throws InterruptedException {
        RedisRateLimiter limiter = frozen(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 1000, Duration.ofMinutes(1)),
                FailurePolicy.FAIL_CLOSED);
        assertTrue(limiter.tryAcquire("k", 1, NOW));
        Thread sleeper = new Thread(() -> server.command("DEBUG SLEEP 2"));
        sleeper.start();
        // Until the server is asleep its answers admit; once asleep, the policy denies each within the timeout.
        int denied = 0;
        for (int i = 0; i < 40 && denied < 3; i++) {
            long start = System.nanoTime();
            if (!limiter.tryAcquire("k", 1, NOW)) {
                denied++;
            }
            assertTrue(System.nanoTime() - start < LATE_NANOS, "decision " + i + " within the timeout");
        }
        assertEquals(3, denied);
        assertEquals(3, limiter.failures());
        sleeper.join();
    }

    /** The memo of denials is off: these tests watch every request meet the outage (a remembered denial would not). */
    private RedisRateLimiter frozen(RateLimitConfig config, FailurePolicy policy) {
        return RedisRateLimiter.builder(config, connection).timeout(TIMEOUT).failurePolicy(policy)
                .denyMemo(0).callerTimeForTests().build();
    }

    private static String take(RedisRateLimiter limiter, int times) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < times; i++) {
            out.append(limiter.tryAcquire("k", 1, NOW) ? 'Y' : 'N');
        }
        return out.toString();
    }

    private static void assertDecidedInTime(BooleanSupplier decisionAsExpected) {
        long start = System.nanoTime();
        assertTrue(decisionAsExpected.getAsBoolean(), "decided as the failure policy says");
        long took = System.nanoTime() - start;
        assertTrue(took < LATE_NANOS, "decided in " + took / 1_000_000 + " ms, timeout " + TIMEOUT.toMillis() + " ms");
    }

    /** Lettuce reconnects with a back-off; a bounded wait for the first answer from Redis. */
    private static void awaitRecovery(BooleanSupplier answeredByRedis) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!answeredByRedis.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "no recovery within 20 s");
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
