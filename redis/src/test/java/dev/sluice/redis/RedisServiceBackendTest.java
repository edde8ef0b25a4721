package dev.sluice.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis plugged into {@link RateLimiterService} as a backend: the service resolves the rules and keeps its own
 * clock (a ManualClock, whose time the scripts take), Redis holds the state of the rules that name it.
 */
class RedisServiceBackendTest {

    @RegisterExtension
    static final SingleRedis server = new SingleRedis();

    @Test
    void theCoreScenarioComesOutExactlyWithEveryRuleOnRedis() {
        RuleSet rules = RuleSet.builder()
                .defaultRule(Rule.of(new RateLimitConfig(Algorithm.FIXED_WINDOW, 3, 1000)).onBackend("redis"))
                .addApi("search", Rule.of(new RateLimitConfig(Algorithm.TOKEN_BUCKET, 5, 1000)).onBackend("redis"))
                .addUser("premium",
                        Rule.of(new RateLimitConfig(Algorithm.SLIDING_WINDOW_LOG, 4, 1000)).onBackend("redis"))
                .addUserApi("premium", "pay",
                        Rule.of(new RateLimitConfig(Algorithm.TOKEN_BUCKET, 2, 1000)).onBackend("redis"))
                .build();
        ManualClock clock = new ManualClock();
        try (RateLimiterService service = service(clock, rules, "scenario-service:")) {
            assertEquals("YYYNN", run(service, "alice", "home", 5));
            assertEquals("YYYN", run(service, "bob", "home", 4));
            assertEquals("YYYYYNN", run(service, "alice", "search", 7));
            clock.advanceMillis(400);
            assertEquals("YYN", run(service, "alice", "search", 3));
            clock.setMillis(10_900);
            assertEquals("YYY", run(service, "carl", "home", 3));
            clock.setMillis(11_050);
            assertEquals("YYY", run(service, "carl", "home", 3));
            clock.setMillis(20_000);
            assertEquals("YYYYN", run(service, "premium", "feed", 5));
            clock.setMillis(20_900);
            assertEquals("N", run(service, "premium", "feed", 1));
            clock.setMillis(21_001);
            assertEquals("YYYYN", run(service, "premium", "feed", 5));
            assertEquals("YYN", run(service, "premium", "pay", 3));
        }
    }

    /** 5 per second and 3 per minute: the per-second part's permit is given back when the per-minute part denies. */
    @Test
    void aCompositeRuleRollsBackOnRedisWhenALaterPartDenies() {
        RuleSet rules = RuleSet.builder()
                .defaultRule(Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 5, Duration.ofSeconds(1)),
                        RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofMinutes(1))).onBackend("redis"))
                .build();
        ManualClock clock = new ManualClock();
        try (RateLimiterService service = service(clock, rules, "composite:")) {
            assertEquals("YYYNNNNN", run(service, "dana", "x", 8));
            // Were the denied requests' per-second permits kept, this second's 5 would be gone.
            try (RedisRateLimiter perSecond = RedisRateLimiter.builder(
                    RateLimitConfig.of(Algorithm.FIXED_WINDOW, 5, Duration.ofSeconds(1)), server.connection())
                    .keyPrefix("composite:").timeout(Duration.ofSeconds(10)).callerTimeForTests().build()) {
                assertTrue(perSecond.tryAcquire("dana", "x", 2, clock.nanoTime(), null));
                assertFalse(perSecond.tryAcquire("dana", "x", 1, clock.nanoTime(), null));
            }
        }
    }

    private static RateLimiterService service(ManualClock clock, RuleSet rules, String prefix) {
        return RateLimiterService.builder().clock(clock).rules(rules)
                .backend("redis", config -> RedisRateLimiter.builder(config, server.connection()).keyPrefix(prefix)
                        .timeout(Duration.ofSeconds(10)).callerTimeForTests().build())
                .build();
    }

    private static String run(RateLimiterService service, String user, String api, int times) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < times; i++) {
            out.append(service.allow(user, api) ? 'Y' : 'N');
        }
        return out.toString();
    }
}
