package dev.sluice.negative;

import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Negative control of claim 3: the expectations of {@code SlidingLogRingWrap.LimitTwoBothExpired} against
 * {@link UnclaimedLog} (no claim CAS). JCStress must report a FORBIDDEN outcome: both admitted into one ring slot.
 */
public final class UnclaimedLogControls {

    static final long W = OneKey.WINDOW;
    static final long T0 = W / 10;
    static final long T1 = T0 + W + W / 2;

    private UnclaimedLogControls() {
    }

    /** As {@code SlidingLogRingWrap.LimitTwoBothExpired}. */
    @JCStressTest
    @Outcome(id = "2, 0, 2", expect = Expect.ACCEPTABLE, desc = "both admitted and both logged")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a permit left before T1 + W: both wrote one slot (expected here: no claim)")
    @State
    public static class LimitTwoBothExpired {
        private final UnclaimedLog log = new UnclaimedLog(2, 2, T0);
        private int first;
        private int second;

        @Actor
        public void actor1() {
            first = log.take(T1);
        }

        @Actor
        public void actor2() {
            second = log.take(T1);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = first + second;
            r.r2 = log.drain(T1 + W - 1);
            r.r3 = log.drain(T1 + W);
            log.free();
        }
    }
}
