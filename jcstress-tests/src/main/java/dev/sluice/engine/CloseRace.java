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
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Claim: {@code close()} racing with a call completes the call normally or makes it throw
 * {@link IllegalStateException}, never anything else, on each algorithm. The limiter (limit 4, default memory
 * backend) already holds its table and one other key, so the raced call is a request for a fresh key, which every
 * algorithm admits. Result: the raced call (1 admitted, 0 denied, {@value #CLOSED} IllegalStateException,
 * {@value #OTHER} any other throwable), then the arbiter's call after close.
 */
public final class CloseRace {

    static final int CLOSED = -1;
    static final int OTHER = -2;

    private CloseRace() {
    }

    static RateLimiter opened(Algorithm algorithm) {
        RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 4, Duration.ofNanos(OneKey.WINDOW)))
                .clock(new ManualClock()).maxKeys(16).build();
        if (!limiter.tryAcquire(OneKey.KEY + 1, 1, OneKey.NOW)) {
            throw new IllegalStateException("setup denied");
        }
        return limiter;
    }

    static int ask(RateLimiter limiter) {
        try {
            return limiter.tryAcquire(OneKey.KEY, 1, OneKey.NOW) ? 1 : 0;
        } catch (IllegalStateException closed) {
            return CLOSED;
        } catch (Throwable other) {
            return OTHER;
        }
    }

    /** TOKEN_BUCKET. */
    @JCStressTest
    @Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the call completed normally (before or during close); calls after close throw")
    @Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the call started after close and threw IllegalStateException")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial, another exception, or a call after close that did not throw")
    @State
    public static class TokenBucket {
        private final RateLimiter limiter = opened(Algorithm.TOKEN_BUCKET);
        private int call;

        @Actor
        public void request() {
            call = ask(limiter);
        }

        @Actor
        public void close() {
            limiter.close();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = call;
            r.r2 = ask(limiter);
        }
    }

    /** LEAKY_BUCKET. */
    @JCStressTest
    @Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the call completed normally (before or during close); calls after close throw")
    @Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the call started after close and threw IllegalStateException")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial, another exception, or a call after close that did not throw")
    @State
    public static class LeakyBucket {
        private final RateLimiter limiter = opened(Algorithm.LEAKY_BUCKET);
        private int call;

        @Actor
        public void request() {
            call = ask(limiter);
        }

        @Actor
        public void close() {
            limiter.close();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = call;
            r.r2 = ask(limiter);
        }
    }

    /** FIXED_WINDOW. */
    @JCStressTest
    @Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the call completed normally (before or during close); calls after close throw")
    @Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the call started after close and threw IllegalStateException")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial, another exception, or a call after close that did not throw")
    @State
    public static class FixedWindow {
        private final RateLimiter limiter = opened(Algorithm.FIXED_WINDOW);
        private int call;

        @Actor
        public void request() {
            call = ask(limiter);
        }

        @Actor
        public void close() {
            limiter.close();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = call;
            r.r2 = ask(limiter);
        }
    }

    /** SLIDING_WINDOW_COUNTER. */
    @JCStressTest
    @Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the call completed normally (before or during close); calls after close throw")
    @Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the call started after close and threw IllegalStateException")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial, another exception, or a call after close that did not throw")
    @State
    public static class SlidingWindowCounter {
        private final RateLimiter limiter = opened(Algorithm.SLIDING_WINDOW_COUNTER);
        private int call;

        @Actor
        public void request() {
            call = ask(limiter);
        }

        @Actor
        public void close() {
            limiter.close();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = call;
            r.r2 = ask(limiter);
        }
    }

    /** SLIDING_WINDOW_LOG. */
    @JCStressTest
    @Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the call completed normally (before or during close); calls after close throw")
    @Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the call started after close and threw IllegalStateException")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a denial, another exception, or a call after close that did not throw")
    @State
    public static class SlidingWindowLog {
        private final RateLimiter limiter = opened(Algorithm.SLIDING_WINDOW_LOG);
        private int call;

        @Actor
        public void request() {
            call = ask(limiter);
        }

        @Actor
        public void close() {
            limiter.close();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = call;
            r.r2 = ask(limiter);
        }
    }
}
