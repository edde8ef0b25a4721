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
 * Claim 4, update vs reclaim when a {@code release} lowers the state: token bucket, 2 per second ({@code T} = 0.5 s,
 * capacity 1 s), {@code maxKeys(1)}. Key A took a permit at 0, so its TAT is {@code S = 0.5 s}. One actor asks for A
 * at {@code S - 2}; the other gives A's permit back at {@code S - 1} (TAT {@code S - 1}: A is idle at {@code S}) and
 * then asks for a new key B at {@code S}, whose fresh state is its time: {@code S}, the very value the first actor may
 * have read for A. The table's ABA argument (a fresh state exceeds every state the old key had) assumes states never
 * decrease; release breaks that assumption. In every sequential order both are admitted (the smallest table holds
 * three keys) and each keeps its own state; the arbiter then counts the permits A and B have left at {@code S}:
 * {@code U, R, B} leaves A 2 and B 1; any order with R before U leaves 1 and 1. Result: A admitted, B admitted,
 * A's permits left, B's permits left.
 */
public final class ReleaseVersusReclaim {

    static final long S = OneKey.WINDOW / 2;

    private ReleaseVersusReclaim() {
    }

    /** TOKEN_BUCKET. */
    @JCStressTest
    @Outcome(id = "1, 1, 2, 1", expect = Expect.ACCEPTABLE, desc = "A's request, then the release, then B's (A not idle at S)")
    @Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "the release before A's request, in any order with B's")
    @Outcome(expect = Expect.FORBIDDEN, desc = "A left with 2 and B with 0: A's CAS landed on B's fresh state (ABA), A's permit charged to B")
    @State
    public static class TokenBucket {
        private final ManualClock clock = new ManualClock();
        private final RateLimiter limiter =
                RateLimiter.builder(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofNanos(OneKey.WINDOW)))
                        .clock(clock).maxKeys(1).build();
        private int a;
        private int b;

        public TokenBucket() {
            if (!limiter.tryAcquire(OneKey.KEY, 1, 0)) {
                throw new IllegalStateException("setup denied");
            }
            clock.setNanos(S); // the actors' times are never ahead of the clock, as a new key's reclaim needs
        }

        @Actor
        public void askA() {
            a = limiter.tryAcquire(OneKey.KEY, 1, S - 2) ? 1 : 0;
        }

        @Actor
        public void releaseAThenAskB() {
            limiter.release(OneKey.KEY, 1, S - 1);
            b = limiter.tryAcquire(OneKey.KEY + 1, 1, S) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = a;
            r.r2 = b;
            r.r3 = drain(OneKey.KEY);
            r.r4 = drain(OneKey.KEY + 1);
            limiter.close();
        }

        private int drain(long key) {
            int n = 0;
            while (n < 3 && limiter.tryAcquire(key, 1, S)) {
                n++;
            }
            return n;
        }
    }
}
