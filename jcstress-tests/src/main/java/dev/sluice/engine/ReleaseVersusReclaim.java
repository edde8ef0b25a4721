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
 * Claim 4, update vs reclaim when a {@code release} lowers the state: token bucket, 2 per second ({@code T} = 0.5 s,
 * capacity 1 s), {@code maxKeys(1)}. Key A took a permit at 0, so its TAT is {@code S = 0.5 s}. One actor asks for A
 * at {@code S - 2}; the other gives A's permit back at {@code S - 1} (TAT {@code S - 1}: A is idle at {@code S}) and
 * then asks for a new key B at {@code S}, whose fresh state is its time: {@code S}, the very value the first actor may
 * have read for A. The table's ABA argument (a fresh state exceeds every state the old key had) assumes states never
 * decrease; release breaks that assumption. In every sequential order at most one of A and B is admitted (one slot;
 * B gets it only by reclaiming A, after which A finds the table full).
 */
public final class ReleaseVersusReclaim {

    static final long S = OneKey.WINDOW / 2;

    private ReleaseVersusReclaim() {
    }

    /** TOKEN_BUCKET. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "A admitted; B met the full table (A not idle yet, or B's chain missed A's slot)")
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "release and B's reclaim first: A met the full table")
    @Outcome(expect = Expect.FORBIDDEN, desc = "both admitted: A's CAS landed on B's fresh state (ABA), A's permit charged to B")
    @State
    public static class TokenBucket {
        private final RateLimiter limiter =
                RateLimiter.builder(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofNanos(OneKey.WINDOW)))
                        .clock(new ManualClock()).maxKeys(1).build();
        private int a;
        private int b;

        public TokenBucket() {
            if (!limiter.tryAcquire(OneKey.KEY, 1, 0)) {
                throw new IllegalStateException("setup denied");
            }
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
        public void arbiter(II_Result r) {
            r.r1 = a;
            r.r2 = b;
            limiter.close();
        }
    }
}
