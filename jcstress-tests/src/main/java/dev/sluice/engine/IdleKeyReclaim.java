package dev.sluice.engine;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.support.OneKey;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Claim 4 through the real limiters ({@code maxKeys(1)}, limit 1 per window): key A, used at T0, is idle at T1 (two
 * windows later, so that the sliding counter forgets it too); at T1 one actor asks for A, the other for a new key B.
 * The seeded hash decides whether B's probe chain passes A's slot; if it does, B takes the slot over (and, for the
 * sliding log, A's ring) and A comes back in another slot (the smallest table has room for three keys of a packed
 * algorithm). Whatever the order, both are admitted, each holds its permit on its own state, and no request meets a
 * full table. The sliding log is the exception: see its test.
 * Result: A admitted, B admitted, permits A and B still have at T1, table-full events.
 */
public final class IdleKeyReclaim {

    static final long T0 = OneKey.NOW;
    static final long T1 = T0 + 2 * OneKey.WINDOW;
    static final long A = 42L;
    static final long B = 43L;

    private IdleKeyReclaim() {
    }

    static RateLimiter usedAtT0(Algorithm algorithm) {
        ManualClock clock = new ManualClock();
        RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 1, Duration.ofNanos(OneKey.WINDOW)))
                .clock(clock).maxKeys(1).build();
        if (!limiter.tryAcquire(A, 1, T0)) {
            throw new IllegalStateException("setup denied");
        }
        clock.setNanos(T1); // the actors' time is the clock's: a new key judges others idle no later than the clock
        return limiter;
    }

    static int take(RateLimiter limiter, long key) {
        return limiter.tryAcquire(key, 1, T1) ? 1 : 0;
    }

    /** TOKEN_BUCKET. */
    @JCStressTest
    @Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "both admitted, each holding its one permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a permit left: an admission lost or applied to the other key; a full table with room left")
    @State
    public static class TokenBucket {
        private final RateLimiter limiter = usedAtT0(Algorithm.TOKEN_BUCKET);
        private int a;
        private int b;

        @Actor
        public void askA() {
            a = take(limiter, A);
        }

        @Actor
        public void askB() {
            b = take(limiter, B);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a;
            r.r2 = b;
            r.r4 = (int) limiter.tableFullEvents();
            r.r3 = take(limiter, A) + take(limiter, B);
            limiter.close();
        }
    }

    /** FIXED_WINDOW. */
    @JCStressTest
    @Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "both admitted, each holding its one permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a permit left: an admission lost or applied to the other key; a full table with room left")
    @State
    public static class FixedWindow {
        private final RateLimiter limiter = usedAtT0(Algorithm.FIXED_WINDOW);
        private int a;
        private int b;

        @Actor
        public void askA() {
            a = take(limiter, A);
        }

        @Actor
        public void askB() {
            b = take(limiter, B);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a;
            r.r2 = b;
            r.r4 = (int) limiter.tableFullEvents();
            r.r3 = take(limiter, A) + take(limiter, B);
            limiter.close();
        }
    }

    /** SLIDING_WINDOW_COUNTER. */
    @JCStressTest
    @Outcome(id = "1, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "both admitted, each holding its one permit")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a permit left: an admission lost or applied to the other key; a full table with room left")
    @State
    public static class SlidingCounter {
        private final RateLimiter limiter = usedAtT0(Algorithm.SLIDING_WINDOW_COUNTER);
        private int a;
        private int b;

        @Actor
        public void askA() {
            a = take(limiter, A);
        }

        @Actor
        public void askB() {
            b = take(limiter, B);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a;
            r.r2 = b;
            r.r4 = (int) limiter.tableFullEvents();
            r.r3 = take(limiter, A) + take(limiter, B);
            limiter.close();
        }
    }

    /**
     * SLIDING_WINDOW_LOG: its capacity is exact (one ring per key), so B gets in only by taking over or evicting A,
     * and then A finds the table full.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 0, 1", expect = Expect.ACCEPTABLE, desc = "A's request first: A live again, B meets the full table")
    @Outcome(id = "0, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "B first: it takes A's slot and ring, A meets the full table")
    @Outcome(expect = Expect.FORBIDDEN, desc = "both admitted on one ring; a permit left: an admission lost or applied to the other key")
    @State
    public static class SlidingLog {
        private final RateLimiter limiter = usedAtT0(Algorithm.SLIDING_WINDOW_LOG);
        private int a;
        private int b;

        @Actor
        public void askA() {
            a = take(limiter, A);
        }

        @Actor
        public void askB() {
            b = take(limiter, B);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a;
            r.r2 = b;
            r.r4 = (int) limiter.tableFullEvents();
            r.r3 = take(limiter, A) + take(limiter, B);
            limiter.close();
        }
    }
}
