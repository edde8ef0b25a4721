package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Undo, engine against reference, on random traces: admissions are undone late, out of order, across window edges
 * and refills and after other requests on the key, and every later decision still agrees field by field. The keys
 * are few, so undos meet the interleavings that matter; long, string and two-part keys alike.
 */
class UndoDifferentialTest {

    private static final int REQUESTS = 30_000;
    private static final int KEYS = 4;
    private static final int PENDING = 6;

    private static final long[][] LIMITS_AND_WINDOWS_MS = {{1, 10}, {3, 1000}, {7, 250}, {5, 60_000}};

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void undoneAdmissionsLeaveEngineAndReferenceInAgreement(Algorithm algorithm) {
        long seed = 0x0D0_0000L + algorithm.ordinal() * 16L;
        for (long[] lw : LIMITS_AND_WINDOWS_MS) {
            RateLimitConfig config = RateLimitConfig.of(algorithm, lw[0], Duration.ofMillis(lw[1]));
            compare(config, seed++);
            if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET) {
                compare(config.withBurst(Math.max(1, lw[0] * 2)), seed++);
            }
        }
    }

    private static void compare(RateLimitConfig config, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ManualClock clock = new ManualClock();
        clock.setNanos(random.nextLong(1L << 40));
        long window = config.windowNanos();
        long emission = Math.max(1, window / config.limit());
        Decision[] engineAdmitted = new Decision[PENDING];
        Decision[] referenceAdmitted = new Decision[PENDING];
        int[] pendingKey = new int[PENDING];
        int[] pendingKind = new int[PENDING];
        for (int i = 0; i < PENDING; i++) {
            engineAdmitted[i] = new Decision();
            referenceAdmitted[i] = new Decision();
        }
        int pending = 0;
        Decision actual = new Decision();
        Decision expected = new Decision();
        int undone = 0;
        try (RateLimiter engine = RateLimiter.builder(config).clock(clock).maxKeys(64).build();
                RateLimiter reference = new ReferenceRateLimiter(config, clock)) {
            long now = clock.nanoTime();
            for (int i = 0; i < REQUESTS; i++) {
                now += DifferentialTest.step(random, window, emission, now);
                clock.setNanos(now);
                if (pending > 0 && random.nextInt(4) == 0) {
                    int p = random.nextInt(pending);
                    undo(engine, pendingKind[p], pendingKey[p], engineAdmitted[p]);
                    undo(reference, pendingKind[p], pendingKey[p], referenceAdmitted[p]);
                    undone++;
                    pending--;
                    swap(engineAdmitted, p, pending);
                    swap(referenceAdmitted, p, pending);
                    pendingKey[p] = pendingKey[pending];
                    pendingKind[p] = pendingKind[pending];
                    continue;
                }
                int k = random.nextInt(KEYS);
                int kind = random.nextInt(3);
                long permits = 1 + random.nextInt((int) Math.min(3, config.burst()));
                boolean a = acquire(engine, kind, k, permits, now, actual);
                boolean e = acquire(reference, kind, k, permits, now, expected);
                String where = config + " seed " + seed + " request " + i + " kind " + kind + " key " + k;
                assertEquals(e, a, where);
                assertEquals(expected.toString(), actual.toString(), where);
                if (a && pending < PENDING) {
                    engineAdmitted[pending].copyFrom(actual);
                    referenceAdmitted[pending].copyFrom(expected);
                    pendingKey[pending] = k;
                    pendingKind[pending] = kind;
                    pending++;
                }
            }
        }
        assertEquals(true, undone > REQUESTS / 10, "undos exercised: " + undone);
    }

    private static boolean acquire(RateLimiter limiter, int kind, int k, long permits, long now, Decision d) {
        switch (kind) {
            case 0:
                return limiter.tryAcquire(k, permits, now, d);
            case 1:
                return limiter.tryAcquire("k" + k, permits, now, d);
            default:
                return limiter.tryAcquire("u" + k, "a", permits, now, d);
        }
    }

    private static void undo(RateLimiter limiter, int kind, int k, Decision admitted) {
        switch (kind) {
            case 0:
                limiter.undo(k, admitted);
                break;
            case 1:
                limiter.undo("k" + k, admitted);
                break;
            default:
                limiter.undo("u" + k, "a", admitted);
        }
    }

    private static void swap(Decision[] a, int i, int j) {
        Decision t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
