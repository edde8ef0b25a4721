package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test with time moving: bursts of async requests (mixed weights, each at its own caller time) queue
 * behind one another on a coalescing limiter, so each burst is decided in a few batched script runs, in the order
 * sent; the local engine, given the same requests one by one in that order, makes the same decisions, field by
 * field. A burst (at most 20) never fills a key's queue (32), so no request is sent alone ahead of queued ones and
 * Redis's order is the order sent. The memo of denials is off: this checks the batch script.
 */
class RedisCoalescingParityTest {

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    static Stream<RateLimitConfig> configs() {
        return RedisParityTest.configs();
    }

    /** A request of the trace and its decision on Redis. */
    private record Sent(long key, long permits, long now, CompletableFuture<Decision> decision) {
    }

    @ParameterizedTest
    @MethodSource("configs")
    void batchedDecisionsEqualTheLocalEngineOneByOne(RateLimitConfig config) {
        ManualClock clock = new ManualClock();
        long windowMicros = config.windowNanos() / 1000;
        SplittableRandom random = new SplittableRandom(config.toString().hashCode());
        Decision local = new Decision();
        int admitted = 0;
        int denied = 0;
        try (RateLimiter engine = RateLimiter.create(config, clock);
                RedisRateLimiter redis = RedisRateLimiter.builder(config, server.connection())
                        .keyPrefix("coalesce-parity" + random.nextLong() + ":").timeout(Duration.ofSeconds(10))
                        .denyMemo(0).coalesce(32).clock(clock).callerTimeForTests().build()) {
            for (int burst = 0; burst < 150; burst++) {
                List<Sent> sent = new ArrayList<>();
                int size = 1 + random.nextInt(20);
                for (int i = 0; i < size; i++) {
                    int roll = random.nextInt(100);
                    long step = roll < 3 ? random.nextLong(3 * windowMicros)
                            : random.nextLong(windowMicros / (config.limit() + 2) + 1);
                    clock.advanceNanos(step * 1000);
                    long key = random.nextInt(2);
                    long permits = roll == 50 ? config.burst() + 1 : 1 + random.nextInt(3);
                    sent.add(new Sent(key, permits, clock.nanoTime(),
                            redis.decideAsync(key, permits).toCompletableFuture()));
                }
                for (Sent s : sent) {
                    boolean a = engine.tryAcquire(s.key, s.permits, s.now, local);
                    Decision remote = s.decision.join();
                    assertEquals(local.toString(), remote.toString(),
                            "burst " + burst + " key " + s.key + " permits " + s.permits + " at " + s.now + "ns");
                    assertEquals(a, remote.allowed());
                    if (a) {
                        admitted++;
                    } else {
                        denied++;
                    }
                }
            }
            assertEquals(0, redis.failures());
            assertTrue(redis.coalesced() > 500, "most requests were decided in shared runs: " + redis.coalesced());
        }
        assertTrue(admitted > 100 && denied > 100, "the trace exercises both outcomes: " + admitted + "/" + denied);
    }
}
