package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The lock-free engine and the synchronized reference make the same decision, with the same Decision fields, on
 * every request of long random traces: many keys (long and string), random forward time steps that often land on
 * window and refill boundaries, random weights (some above the limit), and give-backs. The engine's table is sized
 * to the key count, so idle keys are reclaimed along the way, which must be invisible.
 */
class DifferentialTest {

    private static final int REQUESTS_PER_CONFIG = 40_000;

    private static final long[][] LIMITS_AND_WINDOWS_MS = {{1, 1}, {3, 1000}, {7, 250}, {100, 60_000}, {5, 86_400_000}};

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void engineAgreesWithReferenceOnRandomTraces(Algorithm algorithm) {
        long seed = 0x5EED_0000L + algorithm.ordinal();
        for (long[] lw : LIMITS_AND_WINDOWS_MS) {
            RateLimitConfig config = RateLimitConfig.of(algorithm, lw[0], Duration.ofMillis(lw[1]));
            compare(config, MemoryBackend.AUTO, seed++);
            if (algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.LEAKY_BUCKET) {
                compare(config.withBurst(Math.max(1, lw[0] / 2)), MemoryBackend.AUTO, seed++);
            }
        }
    }

    /** Windows shifted by an offset fall on the same boundaries in both, day windows included. */
    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"FIXED_WINDOW", "SLIDING_WINDOW_COUNTER"})
    void engineAgreesWithReferenceOnWindowsAlignedToAnOffset(Algorithm algorithm) {
        long seed = 0xA1_0000L + algorithm.ordinal() * 16L;
        for (int minutes : new int[] {-570, -300, 90, 330, 840}) {
            for (long[] lw : LIMITS_AND_WINDOWS_MS) {
                RateLimitConfig config = RateLimitConfig.of(algorithm, lw[0], Duration.ofMillis(lw[1]))
                        .alignedTo(ZoneOffset.ofTotalSeconds(minutes * 60));
                compare(config, MemoryBackend.AUTO, seed++);
            }
        }
    }

    /** AUTO picks one backend; the others this JVM allows must decide exactly the same. */
    @ParameterizedTest
    @EnumSource(value = MemoryBackend.class, names = {"VAR_HANDLE", "UNSAFE", "AGRONA", "FFM"})
    void everyMemoryBackendAgreesWithReference(MemoryBackend backend) {
        // The build passes AGRONA's flag to the tests, so only FFM (JDK 22+) can be absent.
        Assumptions.assumeTrue(backend != MemoryBackend.FFM || Runtime.version().feature() >= 22, "FFM needs JDK 22");
        long seed = 0xBAC0_0000L + backend.ordinal() * 16L;
        for (Algorithm algorithm : Algorithm.values()) {
            compare(RateLimitConfig.of(algorithm, 7, Duration.ofMillis(250)), backend, seed++);
        }
    }

    private static void compare(RateLimitConfig config, MemoryBackend backend, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ManualClock clock = new ManualClock();
        clock.setNanos(random.nextLong(1L << 40));
        int keys = 300;
        long window = config.windowNanos();
        long emission = Math.max(1, window / config.limit());
        Decision expected = new Decision();
        Decision actual = new Decision();
        try (RateLimiter engine = RateLimiter.builder(config).clock(clock).maxKeys(2 * keys).memory(backend).build();
                RateLimiter reference = new ReferenceRateLimiter(config, clock)) {
            long now = clock.nanoTime();
            for (int i = 0; i < REQUESTS_PER_CONFIG; i++) {
                now += step(random, window, emission, now);
                clock.setNanos(now); // callers read the limiters' clock: their times are never ahead of it
                int k = random.nextInt(keys);
                long permits = random.nextInt(20) == 0 ? 1 + config.burst() : 1 + random.nextInt((int) Math.min(3,
                        config.burst()));
                String where = config + " seed " + seed + " request " + i + " key " + k + " permits " + permits;
                if (random.nextInt(50) == 0) {
                    if (random.nextBoolean()) {
                        engine.release(k, permits, now);
                        reference.release(k, permits, now);
                    } else if (k % 2 == 0) {
                        engine.release("k" + k, permits, now);
                        reference.release("k" + k, permits, now);
                    } else {
                        engine.release("u" + k, "a", permits, now);
                        reference.release("u" + k, "a", permits, now);
                    }
                    continue;
                }
                // String keys: one-part for even k, two-part for odd k; with the long keys, 2 * keys at most.
                int kind = random.nextBoolean() ? 0 : 1 + k % 2;
                boolean a = kind == 0 ? engine.tryAcquire(k, permits, now, actual)
                        : kind == 1 ? engine.tryAcquire("k" + k, permits, now, actual)
                        : engine.tryAcquire("u" + k, "a", permits, now, actual);
                boolean e = kind == 0 ? reference.tryAcquire(k, permits, now, expected)
                        : kind == 1 ? reference.tryAcquire("k" + k, permits, now, expected)
                        : reference.tryAcquire("u" + k, "a", permits, now, expected);
                assertEquals(e, a, where);
                assertEquals(expected.toString(), actual.toString(), where);
            }
        }
    }

    /** Mostly small steps, often exactly onto the next refill or window boundary, sometimes several windows. */
    static long step(SplittableRandom random, long window, long emission, long now) {
        switch (random.nextInt(8)) {
            case 0:
                return 0;
            case 1:
                return emission - Math.floorMod(now, emission);
            case 2:
                return window - Math.floorMod(now, window);
            case 3:
                return window * (1 + random.nextInt(3));
            case 4:
                return 1;
            default:
                return random.nextLong(Math.max(1, emission / 2));
        }
    }
}
