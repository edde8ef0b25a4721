package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.table.MemoryFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The table as a user sees it through a limiter: capacity, full-table policy, reclaim of idle keys. */
class KeyTableBehaviourTest {

    private final ManualClock clock = new ManualClock();

    private RateLimiter limiter(int maxKeys, FullTablePolicy policy) {
        return RateLimiter.builder(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofSeconds(1)))
                .clock(clock).maxKeys(maxKeys).fullTablePolicy(policy).build();
    }

    @Test
    void fullTableDeniesNewKeysAndCountsEachTime() {
        try (RateLimiter limiter = limiter(8, FullTablePolicy.DENY)) {
            long k = 0;
            while (limiter.tryAcquire(k)) {
                k++;
            }
            assertTrue(k >= 8, "holds at least maxKeys keys, held " + k);
            assertTrue(k < 16, "never more keys than slots, held " + k);
            assertEquals(1, limiter.tableFullEvents());
            assertFalse(limiter.tryAcquire(1000));
            assertEquals(2, limiter.tableFullEvents());
            assertEquals(k, limiter.liveKeys());
            assertTrue(limiter.tryAcquire(3), "a key already in the table keeps being served");
        }
    }

    @Test
    void fullTableAllowsNewKeysWhenFailingOpen() {
        try (RateLimiter limiter = limiter(8, FullTablePolicy.ALLOW)) {
            for (long k = 0; k < 16; k++) {
                limiter.tryAcquire(k);
            }
            Decision d = new Decision();
            assertTrue(limiter.tryAcquire(100, 1, clock.nanoTime(), d));
            assertTrue(d.allowed());
            assertTrue(limiter.tableFullEvents() >= 1);
        }
    }

    @Test
    void idleKeysAreReclaimedSoNewKeysFitWithoutGrowth() {
        try (RateLimiter limiter = limiter(4096, FullTablePolicy.DENY)) {
            long refused = 0;
            for (int round = 0; round < 40; round++) {
                for (long k = 0; k < 4096; k++) {
                    refused += limiter.tryAcquire(round * 1_000_000L + k) ? 0 : 1;
                }
                clock.advanceMillis(1000);
            }
            // Held at capacity by churn, every fresh key finds an idle key to take over, or room.
            assertEquals(0, refused, "refused of " + 40 * 4096);
            assertEquals(0, limiter.tableFullEvents());
            assertTrue(limiter.liveKeys() <= 2 * 4096, "live keys " + limiter.liveKeys());
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyAlgorithmReclaimsUnderSustainedChurnOfStringKeys(Algorithm algorithm) {
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 2, Duration.ofSeconds(1)))
                .clock(clock).maxKeys(2048).build()) {
            long refused = 0;
            for (int round = 0; round < 100; round++) {
                for (int k = 0; k < 2048; k++) {
                    refused += limiter.tryAcquire("r" + round + "k" + k) ? 0 : 1;
                }
                clock.advanceMillis(2000);
            }
            assertEquals(0, refused, "refused of " + 100 * 2048);
            assertEquals(0, limiter.tableFullEvents());
        }
    }

    @Test
    void aTinyTableUnderChurnKeepsServingAndCountsWhatItRefuses() {
        try (RateLimiter limiter = limiter(8, FullTablePolicy.DENY)) {
            int admitted = 0;
            for (int round = 0; round < 50; round++) {
                for (long k = 0; k < 8; k++) {
                    admitted += limiter.tryAcquire(round * 1000L + k) ? 1 : 0;
                }
                clock.advanceMillis(1000);
            }
            assertEquals(400, admitted + limiter.tableFullEvents());
            assertTrue(admitted >= 350, "admitted " + admitted);
        }
    }

    @Test
    void aReclaimedKeyComesBackFresh() {
        try (RateLimiter limiter = limiter(8, FullTablePolicy.DENY)) {
            assertTrue(limiter.tryAcquire(1, 2));
            clock.advanceMillis(1000);
            for (long k = 10; k < 18; k++) {
                limiter.tryAcquire(k);
            }
            assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3));
        }
    }

    @Test
    void stringAndLongKeysShareTheOneTableAsDistinctKeys() {
        try (RateLimiter limiter = limiter(8, FullTablePolicy.DENY)) {
            for (int k = 0; k < 4; k++) {
                assertTrue(limiter.tryAcquire("user-" + k));
                assertTrue(limiter.tryAcquire(k));
            }
            assertEquals(8, limiter.liveKeys());
            assertEquals("YN", LimiterTestSupport.take(limiter, 2, 2));
            assertTrue(limiter.tryAcquire("user-2"));
            assertFalse(limiter.tryAcquire("user-2"));
        }
    }

    @Test
    void manyKeysKeepIndependentState() {
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 3,
                Duration.ofSeconds(1))).clock(clock).maxKeys(100_000).build()) {
            for (long k = 0; k < 100_000; k++) {
                assertTrue(limiter.tryAcquire(k * 7919, 2));
            }
            for (long k = 0; k < 100_000; k++) {
                assertTrue(limiter.tryAcquire(k * 7919));
                assertFalse(limiter.tryAcquire(k * 7919));
            }
            assertEquals(0, limiter.tableFullEvents());
        }
    }

    @Test
    void keyZeroAndNegativeKeysAreOrdinaryKeys() {
        try (RateLimiter limiter = limiter(16, FullTablePolicy.DENY)) {
            for (long k : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
                assertEquals("YYN", LimiterTestSupport.take(limiter, k, 3), "key " + k);
            }
        }
    }

    @Test
    void autoPicksFfmFromJdk22AndUnsafeBeforeAndEveryBackendThisJvmAllowsWorks() {
        MemoryBackend auto = MemoryFactory.of(MemoryBackend.AUTO).backend();
        if (Runtime.version().feature() < 22) {
            assertEquals(MemoryBackend.UNSAFE, auto, "no-flag JDK 17 must get the fastest backend");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> RateLimiter.builder(
                    RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1))).memory(MemoryBackend.FFM)
                    .build());
            assertTrue(e.getMessage().contains("JDK 22"), e.getMessage());
        } else {
            assertEquals(MemoryBackend.FFM, auto, "JDK 22+ has the FFM API, and JDK 24+ warns on sun.misc.Unsafe");
        }
        for (MemoryBackend backend : MemoryBackend.values()) {
            if (backend == MemoryBackend.FFM && !MemoryFactory.ffmUsable()) {
                continue;
            }
            if (backend == MemoryBackend.AGRONA && !MemoryFactory.agronaUsable()) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> RateLimiter.builder(
                        RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1))).memory(backend).build());
                assertTrue(e.getMessage().contains("--add-exports"), e.getMessage());
                continue;
            }
            try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2,
                    Duration.ofSeconds(1))).clock(clock).maxKeys(16).memory(backend).build()) {
                assertEquals(backend == MemoryBackend.AUTO ? auto : backend, limiter.memoryBackend().orElseThrow());
                assertEquals("YYN", LimiterTestSupport.take(limiter, 1, 3), backend.name());
                assertEquals("YYN", "" + yn(limiter.tryAcquire("one")) + yn(limiter.tryAcquire("one"))
                        + yn(limiter.tryAcquire("one")), backend.name());
            }
        }
    }

    private static char yn(boolean admitted) {
        return admitted ? 'Y' : 'N';
    }
}
