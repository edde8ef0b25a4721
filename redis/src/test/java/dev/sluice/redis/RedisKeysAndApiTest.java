package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Key layout, expiry, sharing between instances, the async API and argument checks. */
class RedisKeysAndApiTest {

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();
    private static RedisCommands<String, String> redis;

    @BeforeAll
    static void commands() {
        redis = server.connection().sync();
    }

    @Test
    void keysCarryPrefixNamespaceAndTheFirstPartAsHashTag() {
        RateLimitConfig perSecond = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofSeconds(1));
        RateLimitConfig perMinute = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 100, Duration.ofMinutes(1));
        try (RedisRateLimiter a = RedisRateLimiter.builder(perSecond, server.connection()).keyPrefix("layout:").timeout(Duration.ofSeconds(10)).build();
                RedisRateLimiter b = RedisRateLimiter.builder(perMinute, server.connection()).keyPrefix("layout:").timeout(Duration.ofSeconds(10))
                        .namespace("minute").build()) {
            assertTrue(a.tryAcquire("alice", "search", 1, 0, null));
            assertTrue(b.tryAcquire("alice", "pay", 1, 0, null));
            List<String> keys = new ArrayList<>(redis.keys("layout:*"));
            keys.sort(null);
            assertEquals(List.of("layout:minute#p5{alice}pay", "layout:minute|p5{alice}pay",
                    "layout:token-bucket-10-1000000us-10|p5{alice}search"), keys);
            int slot = SlotHash.getSlot(keys.get(0));
            for (String key : keys) {
                assertEquals(slot, SlotHash.getSlot(key), key + " is in the caller's slot");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyKeyExpiresOnceIdle(Algorithm algorithm) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 5, Duration.ofSeconds(2));
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection())
                .keyPrefix("ttl-" + algorithm + ":").timeout(Duration.ofSeconds(10)).build()) {
            assertTrue(limiter.tryAcquire(42L, 2));
            List<String> keys = redis.keys("ttl-" + algorithm + ":*");
            assertFalse(keys.isEmpty());
            for (String key : keys) {
                long ttl = redis.pttl(key);
                // At most the time until the state is worthless: 2 windows for the sliding counter, 1 otherwise.
                long most = algorithm == Algorithm.SLIDING_WINDOW_COUNTER ? 4001 : 2001;
                assertTrue(ttl > 0 && ttl <= most, key + " expires in " + ttl + " ms");
            }
        }
    }

    @Test
    void limitersOfEqualConfigsShareKeysAndOfDifferentConfigsDoNot() {
        RateLimitConfig three = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofMinutes(1));
        RateLimitConfig four = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 4, Duration.ofMinutes(1));
        try (RedisRateLimiter a = frozen(three); RedisRateLimiter b = frozen(three); RedisRateLimiter c = frozen(four)) {
            assertTrue(a.tryAcquire(7L, 2, 0));
            assertTrue(b.tryAcquire(7L, 1, 0));
            assertFalse(a.tryAcquire(7L, 1, 0));
            assertFalse(b.tryAcquire(7L, 1, 0));
            assertTrue(c.tryAcquire(7L, 4, 0));
            assertTrue(a.tryAcquire("7", 3, 0), "a string key is not the long key");
        }
    }

    @Test
    void releaseGivesPermitsBack() {
        RateLimitConfig two = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 2, Duration.ofMinutes(1));
        try (RedisRateLimiter limiter = frozen(two)) {
            assertTrue(limiter.tryAcquire("u", "a", 2, 0, null));
            assertFalse(limiter.tryAcquire("u", "a", 1, 0, null));
            limiter.release("u", "a", 1, 0);
            assertTrue(limiter.tryAcquire("u", "a", 1, 0, null));
            assertFalse(limiter.tryAcquire("u", "a", 1, 0, null));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void asyncDecisionsMatchTheLocalEngine(Algorithm algorithm) {
        RateLimitConfig config = RateLimitConfig.of(algorithm, 4, Duration.ofSeconds(1));
        ManualClock clock = new ManualClock();
        Decision local = new Decision();
        try (RateLimiter engine = RateLimiter.create(config, clock);
                RedisRateLimiter limiter = RedisRateLimiter.builder(config, server.connection()).keyPrefix("async:")
                        .clock(clock).timeout(Duration.ofSeconds(10)).denyMemo(0).callerTimeForTests().build()) {
            for (int i = 0; i < 30; i++) {
                clock.advanceMillis(70);
                engine.tryAcquire("k", 1 + i % 2, clock.nanoTime(), local);
                Decision remote = limiter.decideAsync("k", 1 + i % 2).toCompletableFuture().join();
                assertEquals(local.toString(), remote.toString(), "request " + i);
            }
        }
    }

    @Test
    void pipelinedAsyncCallsAdmitExactlyTheLimit() {
        RateLimitConfig fifty = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 50, Duration.ofHours(1));
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(fifty, server.connection()).keyPrefix("pipelined:")
                .timeout(Duration.ofSeconds(5)).build()) {
            List<CompletableFuture<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                CompletionStage<Boolean> call = limiter.tryAcquireAsync(9L, 1);
                calls.add(call.toCompletableFuture());
            }
            assertEquals(50, calls.stream().filter(CompletableFuture::join).count());
            assertEquals(0, limiter.failures());
        }
    }

    @Test
    void rejectsWhatTheScriptsCannotComputeExactly() {
        RateLimitConfig subMicro = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofNanos(1_000_000_500L));
        assertThrows(IllegalArgumentException.class, () -> RedisRateLimiter.builder(subMicro, server.connection()).build());
        RateLimitConfig wide = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 1_000_000, Duration.ofDays(200));
        assertThrows(IllegalArgumentException.class, () -> RedisRateLimiter.builder(wide, server.connection()).build());
        assertThrows(IllegalArgumentException.class, () -> RedisRateLimiter.builder(wide, server.connection()).keyPrefix("{x}"));
        assertThrows(IllegalArgumentException.class, () -> RedisRateLimiter.builder(wide, server.connection()).namespace("a:b"));
    }

    @Test
    void rejectsBadPermitsAndUseAfterClose() {
        RedisRateLimiter limiter = frozen(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> limiter.tryAcquire("k", 0, 0));
        Decision d = new Decision();
        assertFalse(limiter.tryAcquire("k", 4, 0, d));
        assertEquals(Decision.NEVER, d.retryAfterNanos());
        limiter.close();
        limiter.close();
        assertThrows(IllegalStateException.class, () -> limiter.tryAcquire("k", 1, 0));
    }

    private static RedisRateLimiter frozen(RateLimitConfig config) {
        return RedisRateLimiter.builder(config, server.connection()).keyPrefix("share:").timeout(Duration.ofSeconds(10)).callerTimeForTests().build();
    }
}
