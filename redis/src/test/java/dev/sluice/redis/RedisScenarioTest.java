package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The seed scenario (default, API, user and user-API rules), decided on Redis: default FIXED_WINDOW 3/1000 ms, api {@code search} TOKEN_BUCKET
 * 5/1000 ms, user {@code premium} SLIDING_WINDOW_LOG 4/1000 ms, (premium, pay) TOKEN_BUCKET 2/1000 ms, on a
 * ManualClock at 0 whose time the scripts take. The rule resolution is written out here, as RateLimiterService does
 * it: (user, api), else api, else user, else default.
 */
class RedisScenarioTest {

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    private final ManualClock clock = new ManualClock();
    private RedisRateLimiter fallback;
    private RedisRateLimiter search;
    private RedisRateLimiter premium;
    private RedisRateLimiter premiumPay;

    @Test
    void decidesTheCoreScenarioExactly() {
        fallback = limiter(new RateLimitConfig(Algorithm.FIXED_WINDOW, 3, 1000));
        search = limiter(new RateLimitConfig(Algorithm.TOKEN_BUCKET, 5, 1000));
        premium = limiter(new RateLimitConfig(Algorithm.SLIDING_WINDOW_LOG, 4, 1000));
        premiumPay = limiter(new RateLimitConfig(Algorithm.TOKEN_BUCKET, 2, 1000));

        assertEquals("YYYNN", run("alice", "home", 5));
        assertEquals("YYYN", run("bob", "home", 4));
        assertEquals("YYYYYNN", run("alice", "search", 7));
        clock.advanceMillis(400);
        assertEquals("YYN", run("alice", "search", 3));
        clock.setMillis(10_900);
        assertEquals("YYY", run("carl", "home", 3));
        clock.setMillis(11_050);
        assertEquals("YYY", run("carl", "home", 3));
        clock.setMillis(20_000);
        assertEquals("YYYYN", run("premium", "feed", 5));
        clock.setMillis(20_900);
        assertEquals("N", run("premium", "feed", 1));
        clock.setMillis(21_001);
        assertEquals("YYYYN", run("premium", "feed", 5));
        assertEquals("YYN", run("premium", "pay", 3));

        for (RedisRateLimiter l : new RedisRateLimiter[] {fallback, search, premium, premiumPay}) {
            assertEquals(0, l.failures());
            l.close();
        }
    }

    private RedisRateLimiter limiter(RateLimitConfig config) {
        return RedisRateLimiter.builder(config, server.connection()).keyPrefix("scenario:").timeout(Duration.ofSeconds(10)).callerTimeForTests().build();
    }

    private String run(String user, String api, int times) {
        RedisRateLimiter rule = user.equals("premium") && api.equals("pay") ? premiumPay
                : api.equals("search") ? search
                : user.equals("premium") ? premium
                : fallback;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < times; i++) {
            out.append(rule.tryAcquire(user, api, 1, clock.nanoTime(), null) ? 'Y' : 'N');
        }
        return out.toString();
    }
}
