package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code remaining()} is never negative and never above the limit, whatever the readings, releases and weights. */
class RemainingBoundsTest {

    private static final long MS = 1_000_000L;

    @Test
    void aDecisionClampsWhatALimiterReportsIntoZeroToTheLimit() {
        Decision d = new Decision();
        assertEquals(0, d.set(true, 10, -500, 0, 0, 0).remaining());
        assertEquals(10, d.set(true, 10, 11, 0, 0, 0).remaining());
        assertEquals(7, d.set(false, 10, 7, 0, 0, 0).remaining());
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void laggingReadingsReleasesAndHugeWeightsKeepRemainingInBoundsOnTheEngine(Algorithm algorithm) {
        traceStaysInBounds(algorithm, false);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void laggingReadingsReleasesAndHugeWeightsKeepRemainingInBoundsOnTheReference(Algorithm algorithm) {
        traceStaysInBounds(algorithm, true);
    }

    private static void traceStaysInBounds(Algorithm algorithm, boolean reference) {
        long limit = 5;
        RateLimitConfig config = RateLimitConfig.of(algorithm, limit, Duration.ofMillis(100));
        ManualClock clock = new ManualClock();
        SplittableRandom random = new SplittableRandom(algorithm.ordinal() * 31L + (reference ? 1 : 0));
        try (RateLimiter limiter = reference ? new ReferenceRateLimiter(config, clock)
                : RateLimiter.builder(config).clock(clock).maxKeys(64).build()) {
            Decision d = new Decision();
            long t = 0;
            for (int i = 0; i < 20_000; i++) {
                t += random.nextInt(3) * MS / 4;
                long key = random.nextInt(3);
                // Readings up to 1 ms behind the latest one: a thread that read its clock a little earlier.
                long reading = t - random.nextLong(MS);
                switch (random.nextInt(6)) {
                    case 0:
                        limiter.release(key, 1 + random.nextInt((int) limit * 3), reading);
                        break;
                    case 1:
                        limiter.tryAcquire(key, 1 + random.nextInt(1000), reading, d);
                        assertInBounds(d, limit, i);
                        break;
                    default:
                        limiter.tryAcquire(key, 1, reading, d);
                        assertInBounds(d, limit, i);
                }
            }
        }
    }

    private static void assertInBounds(Decision d, long limit, int step) {
        assertTrue(d.remaining() >= 0 && d.remaining() <= limit, "step " + step + ": " + d);
    }
}
