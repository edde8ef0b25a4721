package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bad builder options fail at configuration time with the field's name and the duration in human units. */
class RedisBuilderMessagesTest {

    private static RedisClient client;

    @BeforeAll
    static void client() {
        client = RedisClient.create("redis://127.0.0.1:1"); // never connected: every check fails before
    }

    @AfterAll
    static void shutdown() {
        client.shutdown();
    }

    private static RedisRateLimiter.Builder builder() {
        return RedisRateLimiter.builder(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 10, Duration.ofHours(1)), client);
    }

    @Test
    void aNegativeTimeoutIsNamedInMilliseconds() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builder().timeout(Duration.ofMillis(-250)));
        assertEquals("timeout must be positive, was -250 ms", e.getMessage());
    }

    @Test
    void aZeroOrMissingTimeoutIsNamed() {
        assertEquals("timeout must be positive, was 0 ns",
                assertThrows(IllegalArgumentException.class, () -> builder().timeout(Duration.ZERO)).getMessage());
        assertEquals("timeout must be positive, was null",
                assertThrows(IllegalArgumentException.class, () -> builder().timeout(null)).getMessage());
    }

    @Test
    void aNegativeLeaseHoldIsNamedInHours() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builder().leasing(2, Duration.ofHours(-1)));
        assertEquals("lease maxHold must be positive, was -1 hour", e.getMessage());
    }

    @Test
    void aWindowOfPartMicrosecondsIsNamedInMicroseconds() {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofNanos(1_234_567));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RedisRateLimiter.builder(config, client).build());
        assertEquals("window must be a whole number of microseconds on Redis, was 1.235 ms (1234567 ns)", e.getMessage());
    }
}
