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
    void rulesExampleAddsUpTheScopes() {
        ManualClock clock = new ManualClock();
        java.util.Map<String, String> response = new java.util.LinkedHashMap<>();
        try (RateLimiterService service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 100, Duration.ofMinutes(1)))
                .clock(clock)
                .build()) {
            service.configureUser("alice", Rule.of(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 1_000,
                    Duration.ofHours(1))).countedPer(KeyScope.USER).additive().named("alice-hourly"));
            service.configureApi("/search", Rule.of(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10_000,
                    Duration.ofSeconds(1))).countedPer(KeyScope.API).additive().named("search-total"));
            service.configureUserApi("alice", "/pay", RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 10, Duration.ofMinutes(1)));
            Decision d = new Decision();
            int pay = 0;
            for (int i = 0; i < 12; i++) {
                pay += service.allow("alice", "/pay", 1, d) ? 1 : 0;
            }
            assertEquals(10, pay);
            assertEquals("user-api", d.policyName());
            dev.sluice.http.RateLimitHeaders.writeDecision(d, response::put);
            assertTrue(response.containsKey("RateLimit-Policy"), response.toString());
            assertTrue(response.get("RateLimit-Policy").contains("alice-hourly"), response.toString());
            assertTrue(response.containsKey("Retry-After"), response.toString());
            // alice's hourly total counts across APIs: 10 on /pay and 990 elsewhere spend it.
            int feed = 0;
            for (int m = 0; m < 20; m++) {
                for (int i = 0; i < 100; i++) {
                    feed += service.allow("alice", "/feed") ? 1 : 0;
                }
                clock.advanceMillis(60_000);
            }
            assertEquals(990, feed);
        }
    }
}
