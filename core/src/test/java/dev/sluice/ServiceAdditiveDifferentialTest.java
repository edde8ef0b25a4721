package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The service on the lock-free engine and the same service on the synchronized reference limiters decide every
 * request of a random trace alike, with every counting scope and additive rules (so every rollback path) in play.
 */
class ServiceAdditiveDifferentialTest {

    private static final Algorithm[] ALGORITHMS = {Algorithm.FIXED_WINDOW, Algorithm.TOKEN_BUCKET,
            Algorithm.SLIDING_WINDOW_COUNTER, Algorithm.SLIDING_WINDOW_LOG, Algorithm.LEAKY_BUCKET};

    private static RuleSet rules(SplittableRandom random) {
        RuleSet.Builder b = RuleSet.builder().defaultRule(rule(random, KeyScope.USER_API));
        b.addUser("u0", rule(random, KeyScope.USER).additive());
        b.addApi("a0", rule(random, KeyScope.API).additive());
        b.addApi("a1", rule(random, KeyScope.USER_API));
        b.addUserApi("u1", "a1", rule(random, KeyScope.USER_API).additive());
        b.addDefault(rule(random, KeyScope.GLOBAL).additive());
        b.addUser("u2", Rule.of(config(random), config(random)).countedPer(KeyScope.USER));
        return b.build();
    }

    private static Rule rule(SplittableRandom random, KeyScope scope) {
        return Rule.of(config(random)).countedPer(scope);
    }

    private static RateLimitConfig config(SplittableRandom random) {
        Algorithm a = ALGORITHMS[random.nextInt(ALGORITHMS.length)];
        long limit = 2 + random.nextInt(30);
        return RateLimitConfig.of(a, limit, Duration.ofMillis(200 + random.nextInt(2_000)));
    }

    @Test
    void engineAndReferenceDecideEveryRequestAlike() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            RuleSet rules = rules(random);
            ManualClock clock = new ManualClock();
            try (RateLimiterService engine = RateLimiterService.builder().clock(clock).maxKeysPerLimiter(256)
                    .rules(rules).build();
                    RateLimiterService reference = RateLimiterService.builder().clock(clock).rules(rules)
                            .backend(Rule.LOCAL, c -> new ReferenceRateLimiter(c, clock)).build()) {
                Decision e = new Decision();
                Decision r = new Decision();
                for (int step = 0; step < 3_000; step++) {
                    String user = "u" + random.nextInt(4);
                    String api = "a" + random.nextInt(3);
                    long permits = 1 + random.nextInt(3);
                    boolean expected = reference.allow(user, api, permits, r);
                    boolean actual = engine.allow(user, api, permits, e);
                    String at = "seed " + seed + " step " + step + " " + user + " " + api + " x" + permits;
                    assertEquals(expected, actual, at);
                    assertEquals(r.policyName(), e.policyName(), at);
                    assertEquals(r.remaining(), e.remaining(), at);
                    assertEquals(r.retryAfterNanos(), e.retryAfterNanos(), at);
                    if (random.nextInt(4) == 0) {
                        clock.advanceMillis(random.nextInt(150));
                    }
                }
            }
        }
    }
}
