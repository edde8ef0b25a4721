package dev.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Many threads on a frozen clock: per key, exactly the limit is admitted, whatever the interleaving. */
class ConcurrencyTest {

    private static final int THREADS = 8;

    private static void runThreads(Runnable body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                body.run();
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void manyThreadsOnOneKeyAdmitExactlyTheLimit(Algorithm algorithm) throws InterruptedException {
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 500, Duration.ofMinutes(1)))
                .clock(new ManualClock()).maxKeys(64).build()) {
            AtomicLongArray admitted = new AtomicLongArray(1);
            runThreads(() -> {
                for (int i = 0; i < 2000; i++) {
                    if (limiter.tryAcquire(42L, 1, 0)) {
                        admitted.incrementAndGet(0);
                    }
                }
            });
            assertEquals(500, admitted.get(0));
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void firstRequestsRacingOnANewKeyAreNeverLost(Algorithm algorithm) throws Exception {
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 1, Duration.ofMinutes(1)))
                .clock(new ManualClock()).maxKeys(4096).build()) {
            int keys = 3000;
            AtomicLongArray admitted = new AtomicLongArray(keys);
            java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(2);
            Runnable racer = () -> {
                try {
                    for (int k = 0; k < keys; k++) {
                        barrier.await();
                        if (limiter.tryAcquire(k, 1, 0)) {
                            admitted.incrementAndGet(k);
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            Thread a = new Thread(racer);
            Thread b = new Thread(racer);
            a.start();
            b.start();
            a.join();
            b.join();
            for (int k = 0; k < keys; k++) {
                assertEquals(1, admitted.get(k), "key " + k);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void manyThreadsOnManyKeysAdmitExactlyTheLimitPerKey(Algorithm algorithm) throws InterruptedException {
        int keys = 2000;
        int limit = 20;
        try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, limit, Duration.ofMinutes(1)))
                .clock(new ManualClock()).maxKeys(2 * keys).build()) { // long and string keys share one table
            AtomicLongArray admittedLong = new AtomicLongArray(keys);
            AtomicLongArray admittedString = new AtomicLongArray(keys);
            runThreads(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < 20_000; i++) {
                    int k = random.nextInt(keys);
                    long permits = 1 + random.nextInt(3);
                    if (limiter.tryAcquire(k, permits, 0)) {
                        admittedLong.addAndGet(k, permits);
                    }
                    if (limiter.tryAcquire("key-" + k, permits, 0)) {
                        admittedString.addAndGet(k, permits);
                    }
                }
            });
            for (int k = 0; k < keys; k++) {
                long a = admittedLong.get(k);
                long b = admittedString.get(k);
                // Demand per key (~80 requests of 1-3 permits) far exceeds the limit: the total stops within 2 of it.
                assertEquals(true, a <= limit && a >= limit - 2, "long key " + k + " admitted " + a);
                assertEquals(true, b <= limit && b >= limit - 2, "string key " + k + " admitted " + b);
            }
        }
    }
}
