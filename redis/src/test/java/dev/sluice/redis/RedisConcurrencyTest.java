package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several limiter instances, as several gateways, each with its own connection, hammer one key from several
 * threads: exactly the limit is admitted in total, for every algorithm.
 */
class RedisConcurrencyTest {

    private static final int INSTANCES = 4;
    private static final int THREADS_PER_INSTANCE = 2;
    private static final int CALLS_PER_THREAD = 125;

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void instancesAdmitExactlyTheLimitTogetherAtOneInstant(Algorithm algorithm) throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 100, Duration.ofSeconds(60));
        assertEquals(100, hammer(config, "frozen-" + algorithm + ":", true));
    }

    /** On Redis's own clock: 100 per hour cannot refill (or roll a sliding log) during a run of a few seconds. */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"TOKEN_BUCKET", "SLIDING_WINDOW_LOG", "LEAKY_BUCKET"})
    void instancesAdmitExactlyTheLimitTogetherOnRedisTime(Algorithm algorithm) throws InterruptedException {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 100, Duration.ofHours(1));
        assertEquals(100, hammer(config, "redis-time-" + algorithm + ":", false));
    }

    private static int hammer(RateLimitConfig config, String prefix, boolean frozen) throws InterruptedException {
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        List<RedisRateLimiter> limiters = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            StatefulRedisConnection<String, String> c = server.client().connect();
            connections.add(c);
            RedisRateLimiter.Builder b = RedisRateLimiter.builder(config, c).keyPrefix(prefix).timeout(Duration.ofSeconds(5));
            limiters.add(frozen ? b.callerTimeForTests().build() : b.build());
        }
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (RedisRateLimiter limiter : limiters) {
            for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < CALLS_PER_THREAD; i++) {
                        if (limiter.tryAcquire("hot", 1, 5_000_000_000L)) {
                            admitted.incrementAndGet();
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
        for (RedisRateLimiter limiter : limiters) {
            assertEquals(0, limiter.failures());
            limiter.close();
        }
        connections.forEach(StatefulRedisConnection::close);
        return admitted.get();
    }
}
