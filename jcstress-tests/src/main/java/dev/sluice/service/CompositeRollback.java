package dev.sluice.service;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
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
 * Composite limits: a rule of two limits, WIDE (2 per minute) tried before NARROW (1 per minute). Two actors
 * each ask once at one frozen time: NARROW admits only one, and the loser's permit already taken from WIDE must be
 * given back. Result: actor 1 admitted, actor 2 admitted, then how many further permits WIDE grants on its own (the
 * arbiter asks it twice): exactly one, or a permit leaked (0) or was given back twice (2).
 */
@JCStressTest
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "one admitted; the denied request consumed nothing anywhere")
@Outcome(id = {"1, 1, 0", "1, 1, 1", "1, 1, 2"}, expect = Expect.FORBIDDEN, desc = "over-admission: both passed a limit of 1")
@Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = Expect.FORBIDDEN, desc = "leak: the denied request kept its permit of WIDE")
@Outcome(expect = Expect.FORBIDDEN, desc = "no sequential order explains this")
@State
public class CompositeRollback {

    public static final RateLimitConfig WIDE = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofMinutes(1));
    public static final RateLimitConfig NARROW = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1, Duration.ofMinutes(1));

    private final RateLimiterService service = RateLimiterService.builder().clock(new ManualClock())
            .maxKeysPerLimiter(16).defaultConfig(WIDE).build();

    public CompositeRollback() {
        service.configureApi("a", Rule.of(WIDE, NARROW));
    }

    @Actor
    public void first(III_Result r) {
        r.r1 = service.allow("u", "a", 1, OneKey.NOW, null) ? 1 : 0;
    }

    @Actor
    public void second(III_Result r) {
        r.r2 = service.allow("u", "a", 1, OneKey.NOW, null) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        RateLimiter wide = service.limiter(Rule.LOCAL, WIDE, false);
        r.r3 = (wide.tryAcquire("u", "a", 1, OneKey.NOW, null) ? 1 : 0)
                + (wide.tryAcquire("u", "a", 1, OneKey.NOW, null) ? 1 : 0);
        service.close();
    }
}
