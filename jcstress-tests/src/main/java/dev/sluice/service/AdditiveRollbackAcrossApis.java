package dev.sluice.service;

import dev.sluice.Algorithm;
import dev.sluice.KeyScope;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import dev.sluice.support.OneKey;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A user's total shared by two APIs: each (user, api) pair has its own PAIR count (1 per minute, tried first) and
 * user u's additive TOTAL (1 per minute, counted per user) is shared. Actor 1 asks for (u, a), actor 2 for (u, b),
 * at one frozen time: TOTAL admits one of them, and the loser's own pair must be left with its permit. Result: actor
 * 1 admitted, actor 2 admitted, then the permits left in the two pairs together (asked once each by the arbiter):
 * exactly one, the loser's.
 */
@JCStressTest
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "one admitted; the loser's pair kept its permit")
@Outcome(id = {"1, 1, 0", "1, 1, 1", "1, 1, 2"}, expect = Expect.FORBIDDEN, desc = "over-admission: both passed the user's one permit")
@Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.FORBIDDEN, desc = "leak: the denied request kept its pair's permit")
@Outcome(expect = Expect.FORBIDDEN, desc = "no sequential order explains this")
@State
public class AdditiveRollbackAcrossApis {

    public static final RateLimitConfig PAIR = RateLimitConfig.of(Algorithm.SLIDING_WINDOW_COUNTER, 1,
            Duration.ofMinutes(1));
    public static final RateLimitConfig TOTAL = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofMinutes(1));

    private final RateLimiterService service = RateLimiterService.builder().clock(new ManualClock())
            .maxKeysPerLimiter(16)
            .rules(RuleSet.builder().defaultConfig(PAIR)
                    .addUser("u", Rule.of(TOTAL).countedPer(KeyScope.USER).additive())
                    .build())
            .build();

    @Actor
    public void first(III_Result r) {
        r.r1 = service.allow("u", "a", 1, OneKey.NOW, null) ? 1 : 0;
    }

    @Actor
    public void second(III_Result r) {
        r.r2 = service.allow("u", "b", 1, OneKey.NOW, null) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        RateLimiter pair = service.limiter(Rule.LOCAL, PAIR, false);
        r.r3 = (pair.tryAcquire("u", "a", 1, OneKey.NOW, null) ? 1 : 0)
                + (pair.tryAcquire("u", "b", 1, OneKey.NOW, null) ? 1 : 0);
        service.close();
    }
}
