package dev.sluice.algorithm;

import dev.sluice.Algorithm;
import dev.sluice.support.OneKey;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Claim 2: a refill or a window roll-over racing with consumption. The key is exhausted at {@code T1} (middle of
 * window 0); exactly one permit becomes available at {@code T2 = T1 + W} (a refilled token, a new window, an expired
 * log entry; for the sliding counter, window 0's two permits still weigh one). One actor moves the
 * {@link dev.sluice.ManualClock} from {@code T1} to {@code T2} while others call {@code tryAcquire(key)}, which reads
 * the clock. Every outcome must be one that some sequential order of those calls allows: a request that read
 * {@code T1} is denied, the first that read {@code T2} is admitted, any later one is denied; and the arbiter, at
 * {@code T2}, finds exactly the permit nobody took.
 */
public final class RolloverRace {

    static final long T1 = OneKey.NOW;
    static final long T2 = T1 + OneKey.WINDOW;

    private RolloverRace() {
    }

    static OneKey exhaustedAtT1(Algorithm algorithm, long limit) {
        OneKey key = new OneKey(algorithm, limit, 0, T1);
        key.clock.setNanos(T1);
        return key;
    }

    /** TOKEN_BUCKET: one actor moves the clock to T2 and then asks; the other asks, before or after the refill of the one token at T2. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the mover took the new permit (the other asked before the move, or after the mover)")
    @Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the other asked between the move and the mover's request, and took the new permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; a leftover permit is an admission lost")
    @State
    public static class TokenBucketMoveThenTake {
        private final OneKey key = exhaustedAtT1(Algorithm.TOKEN_BUCKET, 1);
        private int mover;
        private int other;

        @Actor
        public void moveThenTake() {
            key.clock.setNanos(T2);
            mover = key.takeOnClock();
        }

        @Actor
        public void take() {
            other = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = mover;
            r.r2 = other;
            r.r3 = key.drainAndClose(T2);
        }
    }

    /** TOKEN_BUCKET: one actor moves the clock to T2, two others ask (three CPUs). */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both asked before the move: both denied, the new permit is still there")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one asked after the move and took the new permit; the other was denied")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; otherwise a permit was lost or invented")
    @State
    public static class TokenBucketThreeActorsMoveVersusTwo {
        private final OneKey key = exhaustedAtT1(Algorithm.TOKEN_BUCKET, 1);
        private int first;
        private int second;

        @Actor
        public void move() {
            key.clock.setNanos(T2);
        }

        @Actor
        public void take1() {
            first = key.takeOnClock();
        }

        @Actor
        public void take2() {
            second = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(T2);
        }
    }

    /** LEAKY_BUCKET: one actor moves the clock to T2 and then asks; the other asks, before or after the drain of the one queued request at T2. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the mover took the new permit (the other asked before the move, or after the mover)")
    @Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the other asked between the move and the mover's request, and took the new permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; a leftover permit is an admission lost")
    @State
    public static class LeakyBucketMoveThenTake {
        private final OneKey key = exhaustedAtT1(Algorithm.LEAKY_BUCKET, 1);
        private int mover;
        private int other;

        @Actor
        public void moveThenTake() {
            key.clock.setNanos(T2);
            mover = key.takeOnClock();
        }

        @Actor
        public void take() {
            other = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = mover;
            r.r2 = other;
            r.r3 = key.drainAndClose(T2);
        }
    }

    /** LEAKY_BUCKET: one actor moves the clock to T2, two others ask (three CPUs). */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both asked before the move: both denied, the new permit is still there")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one asked after the move and took the new permit; the other was denied")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; otherwise a permit was lost or invented")
    @State
    public static class LeakyBucketThreeActorsMoveVersusTwo {
        private final OneKey key = exhaustedAtT1(Algorithm.LEAKY_BUCKET, 1);
        private int first;
        private int second;

        @Actor
        public void move() {
            key.clock.setNanos(T2);
        }

        @Actor
        public void take1() {
            first = key.takeOnClock();
        }

        @Actor
        public void take2() {
            second = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(T2);
        }
    }

    /** FIXED_WINDOW: one actor moves the clock to T2 and then asks; the other asks, before or after the roll-over into window 1. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the mover took the new permit (the other asked before the move, or after the mover)")
    @Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the other asked between the move and the mover's request, and took the new permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; a leftover permit is an admission lost")
    @State
    public static class FixedWindowMoveThenTake {
        private final OneKey key = exhaustedAtT1(Algorithm.FIXED_WINDOW, 1);
        private int mover;
        private int other;

        @Actor
        public void moveThenTake() {
            key.clock.setNanos(T2);
            mover = key.takeOnClock();
        }

        @Actor
        public void take() {
            other = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = mover;
            r.r2 = other;
            r.r3 = key.drainAndClose(T2);
        }
    }

    /** FIXED_WINDOW: one actor moves the clock to T2, two others ask (three CPUs). */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both asked before the move: both denied, the new permit is still there")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one asked after the move and took the new permit; the other was denied")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; otherwise a permit was lost or invented")
    @State
    public static class FixedWindowThreeActorsMoveVersusTwo {
        private final OneKey key = exhaustedAtT1(Algorithm.FIXED_WINDOW, 1);
        private int first;
        private int second;

        @Actor
        public void move() {
            key.clock.setNanos(T2);
        }

        @Actor
        public void take1() {
            first = key.takeOnClock();
        }

        @Actor
        public void take2() {
            second = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(T2);
        }
    }

    /** SLIDING_WINDOW_COUNTER: one actor moves the clock to T2 and then asks; the other asks, before or after the roll-over into window 1, where window 0's 2 weigh 1. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the mover took the new permit (the other asked before the move, or after the mover)")
    @Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the other asked between the move and the mover's request, and took the new permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; a leftover permit is an admission lost")
    @State
    public static class SlidingCounterMoveThenTake {
        private final OneKey key = exhaustedAtT1(Algorithm.SLIDING_WINDOW_COUNTER, 2);
        private int mover;
        private int other;

        @Actor
        public void moveThenTake() {
            key.clock.setNanos(T2);
            mover = key.takeOnClock();
        }

        @Actor
        public void take() {
            other = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = mover;
            r.r2 = other;
            r.r3 = key.drainAndClose(T2);
        }
    }

    /** SLIDING_WINDOW_COUNTER: one actor moves the clock to T2, two others ask (three CPUs). */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both asked before the move: both denied, the new permit is still there")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one asked after the move and took the new permit; the other was denied")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; otherwise a permit was lost or invented")
    @State
    public static class SlidingCounterThreeActorsMoveVersusTwo {
        private final OneKey key = exhaustedAtT1(Algorithm.SLIDING_WINDOW_COUNTER, 2);
        private int first;
        private int second;

        @Actor
        public void move() {
            key.clock.setNanos(T2);
        }

        @Actor
        public void take1() {
            first = key.takeOnClock();
        }

        @Actor
        public void take2() {
            second = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(T2);
        }
    }

    /** SLIDING_WINDOW_LOG: one actor moves the clock to T2 and then asks; the other asks, before or after the expiry of the one logged permit. */
    @JCStressTest
    @Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the mover took the new permit (the other asked before the move, or after the mover)")
    @Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the other asked between the move and the mover's request, and took the new permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; a leftover permit is an admission lost")
    @State
    public static class SlidingLogMoveThenTake {
        private final OneKey key = exhaustedAtT1(Algorithm.SLIDING_WINDOW_LOG, 1);
        private int mover;
        private int other;

        @Actor
        public void moveThenTake() {
            key.clock.setNanos(T2);
            mover = key.takeOnClock();
        }

        @Actor
        public void take() {
            other = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = mover;
            r.r2 = other;
            r.r3 = key.drainAndClose(T2);
        }
    }

    /** SLIDING_WINDOW_LOG: one actor moves the clock to T2, two others ask (three CPUs). */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "both asked before the move: both denied, the new permit is still there")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one asked after the move and took the new permit; the other was denied")
    @Outcome(expect = Expect.FORBIDDEN, desc = "two admitted is one permit granted twice; otherwise a permit was lost or invented")
    @State
    public static class SlidingLogThreeActorsMoveVersusTwo {
        private final OneKey key = exhaustedAtT1(Algorithm.SLIDING_WINDOW_LOG, 1);
        private int first;
        private int second;

        @Actor
        public void move() {
            key.clock.setNanos(T2);
        }

        @Actor
        public void take1() {
            first = key.takeOnClock();
        }

        @Actor
        public void take2() {
            second = key.takeOnClock();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = first + second;
            r.r2 = key.drainAndClose(T2);
        }
    }

    /**
     * FIXED_WINDOW with caller times: limit 2, one permit left in window 0. One actor asks at T2 (window 1), the
     * other at T1 (window 0). Whatever the order, both are admitted: a request at T1 after the T2 one counts in
     * window 1 (the window index never goes back), leaving 0 there; before it, in window 0, leaving 1.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "T1 first: counted in window 0; window 1 has 1 left")
    @Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "T2 first: the late T1 request counts in window 1, which is then full")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial has no sequential explanation; 2 left in window 1 means an admission was lost")
    @State
    public static class FixedWindowCallerTimes {
        private final OneKey key = new OneKey(Algorithm.FIXED_WINDOW, 2, 1, T1);
        private int late;
        private int early;

        @Actor
        public void atT2() {
            late = key.takeAt(T2);
        }

        @Actor
        public void atT1() {
            early = key.takeAt(T1);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = late;
            r.r2 = early;
            r.r3 = key.drainAndClose(T2);
        }
    }
}
