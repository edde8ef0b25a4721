package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.reference.ReferenceRateLimiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Limiters that retire when no rule uses them, per-rule table sizes and the off-heap budget of the service. */
class ServiceLifecycleTest {

    private static final RateLimitConfig TWO_PER_SECOND = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofSeconds(1));
    private static final long MIB = 1L << 20;

    private final ManualClock clock = new ManualClock();

    private static RateLimitConfig perMinute(int limit) {
        return RateLimitConfig.of(Algorithm.TOKEN_BUCKET, limit, Duration.ofMinutes(1));
    }

    @Test
    void limiterNoRuleUsesIsClosedAndCounted() {
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND).build()) {
            service.configureUser("alice", perMinute(10));
            RateLimiter first = service.limiter(Rule.LOCAL, perMinute(10), false);
            assertTrue(service.allow("alice", "pay"));
            service.configureUser("alice", perMinute(20));
            assertEquals(1, service.retiredLimiters());
            assertEquals(2, service.liveLimiters());
            assertNull(service.limiter(Rule.LOCAL, perMinute(10), false));
            assertThrows(IllegalStateException.class, () -> first.tryAcquire("k", 1, 0));
        }
    }

    @Test
    void twoHundredEditsOfOneUsersLimitLeaveTheLimitersTheRulesUse() {
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND).build()) {
            for (int i = 1; i <= 200; i++) {
                service.configureUser("alice", perMinute(i));
                clock.advance(Duration.ofSeconds(1));
                assertTrue(service.allow("alice", "pay"));
                assertTrue(service.allow("bob", "pay"));
            }
            assertEquals(199, service.retiredLimiters());
            assertEquals(2, service.liveLimiters());
            long oneTable = RateLimiter.builder(TWO_PER_SECOND).maxKeys(RateLimiterService.DEFAULT_MAX_KEYS_PER_LIMITER)
                    .offHeapBytes();
            assertEquals(2 * oneTable, service.offHeapBytes());
        }
    }

    @Test
    void defaultTableHoldsSixtyFiveThousandKeysInTwoMebibytes() {
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND).build()) {
            assertTrue(service.allow("alice", "pay"));
            long bytes = service.offHeapBytes();
            assertEquals(RateLimiter.builder(TWO_PER_SECOND).maxKeys(65_536).offHeapBytes(), bytes);
            assertTrue(bytes > 2 * MIB - MIB / 8 && bytes < 2 * MIB + MIB / 8, "bytes " + bytes);
        }
    }

    @Test
    void ruleSizesItsOwnTableAndTheEstimateIsWhatIsAllocated() {
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND).build()) {
            service.configureUser("alice", Rule.of(perMinute(5)).maxKeys(1000));
            assertTrue(service.allow("alice", "pay"));
            RateLimiter alice = service.limiter(Rule.LOCAL, perMinute(5), false);
            assertEquals(RateLimiter.builder(perMinute(5)).maxKeys(1000).offHeapBytes(), alice.offHeapBytes());
            assertTrue(alice.offHeapBytes() < 64 * 1024, "bytes " + alice.offHeapBytes());
        }
    }

    @Test
    void configurationAboveTheBudgetFailsNamingRuleSizeAndBudgetAndOldRulesKeepServing() {
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND)
                .offHeapBudgetBytes(8 * MIB).build()) {
            service.configureUser("alice", perMinute(3));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> service.configureApi("search", Rule.of(perMinute(100)).maxKeys(1 << 20)));
            assertTrue(e.getMessage().contains("api=search"), e.getMessage());
            assertTrue(e.getMessage().contains("32.03 MiB"), e.getMessage());
            assertTrue(e.getMessage().contains("offHeapBudgetBytes of 8.00 MiB"), e.getMessage());
            assertNull(service.rules().apiRule("search"));
            assertEquals("YYYN", run(service, "alice", "search", 4));
        }
    }

    @Test
    void buildAboveTheBudgetFails() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateLimiterService.builder()
                .clock(clock).defaultConfig(TWO_PER_SECOND).maxKeysPerLimiter(1 << 20).offHeapBudgetBytes(MIB).build());
        assertTrue(e.getMessage().contains("default"), e.getMessage());
        assertTrue(e.getMessage().contains("1.00 MiB"), e.getMessage());
    }

    @Test
    void budgetBelowOneMebibyteIsRejectedAtConfiguration() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RateLimiterService.builder().offHeapBudgetBytes(1000));
        assertTrue(e.getMessage().contains("offHeapBudgetBytes must be at least 1 MiB"), e.getMessage());
    }

    @Test
    void requestMeetingARetiredLimiterIsDecidedOnTheNewRules() {
        AtomicReference<RateLimiterService> ref = new AtomicReference<>();
        AtomicBoolean editOnce = new AtomicBoolean(true);
        // A backend whose first call edits the rules from inside the call, so that the call's own limiter retires
        // under it, as a request still on an old snapshot meets a limiter a concurrent edit has closed.
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND)
                .backend(Rule.LOCAL, c -> new EditingLimiter(new ReferenceRateLimiter(c, clock), () -> {
                    if (editOnce.getAndSet(false)) {
                        ref.get().configureUser("alice", Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1,
                                Duration.ofSeconds(1))));
                    }
                })).build()) {
            ref.set(service);
            service.configureUser("alice", perMinute(5));
            Decision d = new Decision();
            assertTrue(service.allow("alice", "pay", 1, d));
            assertEquals(1, d.limit());
            assertFalse(service.allow("alice", "pay"));
            assertEquals(1, service.retiredLimiters());
        }
    }

    @Test
    void tenThousandEditsUnderTrafficEndWithTheLimitersTheRulesUse() throws InterruptedException {
        long before = OffHeap.reservedBytes();
        try (RateLimiterService service = RateLimiterService.builder().clock(clock).defaultConfig(TWO_PER_SECOND)
                .maxKeysPerLimiter(1024).build()) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                String user = t == 0 ? "alice" : "user" + t;
                Thread thread = new Thread(() -> {
                    try {
                        Decision d = new Decision();
                        while (!stop.get()) {
                            service.allow(user, "api", 1, d);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                thread.start();
                threads.add(thread);
            }
            for (int i = 1; i <= 10_000; i++) {
                service.configureUser("alice", perMinute(i));
            }
            stop.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
            assertNull(failure.get());
            assertEquals(9_999, service.retiredLimiters());
            assertEquals(2, service.liveLimiters());
            // Retired tables return once collected: what stays is what the two live limiters hold.
            long live = service.offHeapBytes();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (OffHeap.reservedBytes() - before > live && System.nanoTime() - deadline < 0) {
                System.gc();
                Thread.sleep(20);
            }
            assertTrue(OffHeap.reservedBytes() - before <= live,
                    "off-heap after 10,000 edits: " + (OffHeap.reservedBytes() - before) + " B, live limiters " + live);
        }
    }

    /** A limiter that runs {@code before} at the start of each decision, then decides as {@code inner}. */
    private static final class EditingLimiter implements RateLimiter {
        private final RateLimiter inner;
        private final Runnable before;

        EditingLimiter(RateLimiter inner, Runnable before) {
            this.inner = inner;
            this.before = before;
        }

        @Override
        public RateLimitConfig config() {
            return inner.config();
        }

        @Override
        public Clock clock() {
            return inner.clock();
        }

        @Override
        public boolean tryAcquire(long key, long permits, long nowNanos) {
            before.run();
            return inner.tryAcquire(key, permits, nowNanos);
        }

        @Override
        public boolean tryAcquire(CharSequence key, long permits, long nowNanos) {
            before.run();
            return inner.tryAcquire(key, permits, nowNanos);
        }

        @Override
        public boolean tryAcquire(long key, long permits, long nowNanos, Decision decision) {
            before.run();
            return inner.tryAcquire(key, permits, nowNanos, decision);
        }

        @Override
        public boolean tryAcquire(CharSequence key, long permits, long nowNanos, Decision decision) {
            before.run();
            return inner.tryAcquire(key, permits, nowNanos, decision);
        }

        @Override
        public void release(long key, long permits, long nowNanos) {
            inner.release(key, permits, nowNanos);
        }

        @Override
        public void release(CharSequence key, long permits, long nowNanos) {
            inner.release(key, permits, nowNanos);
        }

        @Override
        public long tableFullEvents() {
            return inner.tableFullEvents();
        }

        @Override
        public long liveKeys() {
            return inner.liveKeys();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private static String run(RateLimiterService service, String user, String api, int times) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < times; i++) {
            sb.append(service.allow(user, api) ? 'Y' : 'N');
        }
        return sb.toString();
    }
}
