package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The README's examples, as written there, do what the README says. */
class ReadmeExamplesTest {

    @Test
    void quickStartOnTheSystemClock() {
        try (RateLimiter limiter = RateLimiter.create(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 100, Duration.ofSeconds(1)))) {
            boolean ok = limiter.tryAcquire("alice");
            boolean big = limiter.tryAcquire("alice", 5);
            long now = limiter.clock().nanoTime();
            Decision d = new Decision();
            assertTrue(ok && big);
            assertTrue(limiter.tryAcquire("alice", 1, now, d));
            assertTrue(d.remaining() <= 93, d.toString()); // 100 less the 7 taken, give or take a refill
            assertFalse(limiter.tryAcquire("alice", 101, limiter.clock().nanoTime(), d));
            assertEquals(Decision.NEVER, d.retryAfterNanos());
        }
    }

    @Test
    void rulesExample() {
        ManualClock clock = new ManualClock();
        try (RateLimiterService service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(1)))
                .clock(clock)
                .build()) {
            service.configureApi("search", RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1)));
            service.configureUser("premium", RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, 4, Duration.ofSeconds(1)));
            service.configureUserApi("premium", "pay", Rule.of(
                    RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1)),
                    RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofDays(1))));
            int search = 0;
            int pay = 0;
            int home = 0;
            for (int i = 0; i < 10; i++) {
                search += service.allow("alice", "search") ? 1 : 0;
                pay += service.allow("premium", "pay") ? 1 : 0;
                home += service.allow("alice", "home") ? 1 : 0;
            }
            assertEquals(5, search);
            assertEquals(2, pay);
            assertEquals(3, home);
        }
    }
}
