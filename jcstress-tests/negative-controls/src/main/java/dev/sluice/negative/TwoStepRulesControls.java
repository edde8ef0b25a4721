package dev.sluice.negative;

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
 * Negative control of claim 5: the expectations of {@code dev.sluice.service.RuleChangeRace.ReplaceRules} against
 * {@link TwoStepRules}. JCStress must report a FORBIDDEN outcome (a call admitted by the default).
 */
public final class TwoStepRulesControls {

    private TwoStepRulesControls() {
    }

    /** As {@code RuleChangeRace.ReplaceRules}. */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both calls denied by the old or the new rules")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a call admitted by the default between the two writes (expected here)")
    @State
    public static class ReplaceRules {
        private final TwoStepRules rules = new TwoStepRules();
        private int admitted;

        public ReplaceRules() {
            if (!rules.allow(RuleChange.USER, RuleChange.API, OneKey.NOW)) {
                throw new IllegalStateException("setup denied");
            }
        }

        @Actor
        public void change() {
            rules.change();
        }

        @Actor
        public void ask() {
            admitted = (rules.allow(RuleChange.USER, RuleChange.API, OneKey.NOW) ? 1 : 0)
                    + (rules.allow(RuleChange.USER, RuleChange.API, OneKey.NOW) ? 1 : 0);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = admitted;
            r.r2 = rules.allow("another user", "another api", OneKey.NOW) ? 1 : 0;
            rules.close();
        }
    }
}
