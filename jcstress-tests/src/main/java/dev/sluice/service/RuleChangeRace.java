package dev.sluice.service;

import dev.sluice.ManualClock;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import dev.sluice.support.OneKey;
import dev.sluice.support.RuleChange;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Claim 5: a rule change racing with {@code allow}: each call is decided wholly by the old or wholly by the new rule
 * set (see {@link RuleChange}). Old rules: ("u", "a") limited by {@code SPENT}; new rules: api "a" limited by
 * {@code SPENT}; both: default {@code OPEN}. One actor replaces the rules in one call, the other asks twice for
 * ("u", "a"). Result: requests admitted, then requests the arbiter sees admitted by the default for a fresh user
 * (always 1: the default is intact).
 */
public final class RuleChangeRace {

    private RuleChangeRace() {
    }

    static RuleSet oldRules() {
        return RuleSet.builder().defaultConfig(RuleChange.OPEN)
                .addUserApi(RuleChange.USER, RuleChange.API, Rule.of(RuleChange.SPENT)).build();
    }

    static RuleSet newRules() {
        return RuleSet.builder().defaultConfig(RuleChange.OPEN)
                .addApi(RuleChange.API, Rule.of(RuleChange.SPENT)).build();
    }

    /** {@code replaceRules} racing with two {@code allow} calls. */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both calls denied: each saw the old rules or the new ones, and both deny")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a call admitted by the default: it saw the (user, api) rule gone but not yet the api rule")
    @State
    public static class ReplaceRules {
        private final RateLimiterService service =
                RateLimiterService.builder().clock(new ManualClock()).maxKeysPerLimiter(16)
                        .rules(oldRules()).build();
        private int admitted;

        public ReplaceRules() {
            if (!service.allow(RuleChange.USER, RuleChange.API, 1, OneKey.NOW, null)) {
                throw new IllegalStateException("setup denied");
            }
        }

        @Actor
        public void change() {
            service.replaceRules(newRules());
        }

        @Actor
        public void ask() {
            admitted = (service.allow(RuleChange.USER, RuleChange.API, 1, OneKey.NOW, null) ? 1 : 0)
                    + (service.allow(RuleChange.USER, RuleChange.API, 1, OneKey.NOW, null) ? 1 : 0);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = admitted;
            r.r2 = service.allow("another user", "another api", 1, OneKey.NOW, null) ? 1 : 0;
            service.close();
        }
    }
}
