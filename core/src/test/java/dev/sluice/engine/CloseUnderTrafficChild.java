package dev.sluice.engine;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.MemoryBackend;
import dev.sluice.OffHeap;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.table.MemoryFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The child JVM of {@link CloseUnderTrafficTest}: for each round, a limiter of the next algorithm, eight threads
 * calling it (long, String and two-part keys, acquire and release) and the main thread closing it while they run,
 * with a collection right after the close so that the cleaner may return memory while calls are still inside.
 * Exits 0 when every call completed or threw IllegalStateException and all off-heap memory came back; 1 on any
 * other outcome; a use of freed memory kills the JVM (non-zero exit).
 */
public final class CloseUnderTrafficChild {

    static final int THREADS = 8;

    private CloseUnderTrafficChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        MemoryBackend backend = MemoryBackend.valueOf(args[0]);
        int rounds = Integer.parseInt(args[1]);
        if (backend == MemoryBackend.FFM && MemoryFactory.ffmByAddress() != Boolean.parseBoolean(args[2])) {
            System.out.println("FFM by address: " + MemoryFactory.ffmByAddress() + ", expected " + args[2]);
            System.exit(3);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Algorithm[] algorithms = Algorithm.values();
        for (int round = 0; round < rounds && failure.get() == null; round++) {
            Algorithm algorithm = algorithms[round % algorithms.length];
            RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 1000, Duration.ofMillis(50)))
                    .memory(backend).maxKeys(4096).build();
            limiter.tryAcquire(0L, 1);
            limiter.tryAcquire("warm", 1);
            CountDownLatch running = new CountDownLatch(THREADS);
            Thread[] callers = new Thread[THREADS];
            for (int i = 0; i < THREADS; i++) {
                int id = i;
                callers[i] = new Thread(() -> call(limiter, id, running, failure));
                callers[i].start();
            }
            running.await();
            limiter.close();
            System.gc();
            for (Thread t : callers) {
                t.join();
            }
        }
        if (failure.get() != null) {
            failure.get().printStackTrace();
            System.exit(1);
        }
        long left = awaitReturned();
        if (left != 0) {
            System.err.println(left + " off-heap bytes never returned after every limiter was closed");
            System.exit(1);
        }
        System.exit(0);
    }

    private static void call(RateLimiter limiter, int id, CountDownLatch running, AtomicReference<Throwable> failure) {
        long n = 0;
        Decision decision = new Decision();
        try {
            for (;;) {
                long key = (n * 31 + id) & 1023;
                limiter.tryAcquire(key, 1);
                limiter.tryAcquire("k" + (key & 63), 1);
                limiter.release(key, 1, limiter.clock().nanoTime());
                limiter.tryAcquire("u" + id, "a" + (key & 7), 1, limiter.clock().nanoTime(), decision);
                if (++n == 16) {
                    running.countDown();
                }
            }
        } catch (IllegalStateException closed) {
            if (n < 16) {
                running.countDown();
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            running.countDown();
        }
    }

    /** Collects until every table's memory is back (0 bytes), or 20 s pass; the bytes still reserved. */
    private static long awaitReturned() throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (OffHeap.reservedBytes() != 0 && System.nanoTime() - deadline < 0) {
            System.gc();
            Thread.sleep(20);
        }
        return OffHeap.reservedBytes();
    }
}
