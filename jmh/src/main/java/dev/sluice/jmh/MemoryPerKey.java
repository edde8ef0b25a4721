package dev.sluice.jmh;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Impl;
import dev.sluice.jmh.support.Subject;
import dev.sluice.jmh.support.Workload;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.Locale;

/**
 * Memory per key of one implementation, in a JVM of its own: {@code MemoryPerKey IMPL ALGORITHM LONG|STRING KEYS}.
 *
 * <p>Method: full GC (System.gc() three times), read heap used (MemoryMXBean) and direct memory used (the "direct"
 * BufferPoolMXBean, where Sluice's off-heap tables live); create the store and ask it once for each of KEYS distinct
 * keys; full GC again and read both again. Bytes per key = difference / KEYS. It counts everything the store keeps: for
 * a map of per-key limiters that includes the boxed Long or the String key (a fresh "user-N" string per key, dropped by
 * the caller after the call); Sluice keeps neither (it stores a 64-bit key, or a 128-bit fingerprint of a string).
 * Sluice runs on its VAR_HANDLE backend here, whose direct buffers the pool counts (UNSAFE's native memory it would not
 * see; the bytes are the same). Sluice's table is allocated for its whole capacity (maxKeys = KEYS) up front. A limit
 * of 100 per second (the sliding log: 10 per second, its ring is one long per permit).
 *
 * <p>Prints one tab-separated line: impl, algorithm, keyType, keys, heap bytes, direct bytes, heap B/key,
 * direct B/key, note. An OutOfMemoryError prints the line with "OOM" and the heap limit.
 */
public final class MemoryPerKey {

    private MemoryPerKey() {
    }

    public static void main(String[] args) {
        Impl impl = Impl.valueOf(args[0]);
        Algorithm algorithm = Algorithm.valueOf(args[1]);
        boolean strings = "STRING".equals(args[2]);
        int keys = Integer.parseInt(args[3]);
        long limit = algorithm == Algorithm.SLIDING_WINDOW_LOG ? 10 : 100;
        RateLimitConfig config = RateLimitConfig.of(algorithm, limit, Duration.ofSeconds(1));
        String head = String.join("\t", impl.name(), algorithm.name(), args[2], Integer.toString(keys));
        long heap0 = settledHeap();
        long direct0 = direct();
        Subject subject = null;
        try {
            // VAR_HANDLE: its direct buffers are what the "direct" pool counts; every backend lays the table out alike.
            subject = impl.create(config, keys, MemoryBackend.VAR_HANDLE);
            Caller caller = Caller.standalone();
            for (int i = 0; i < keys; i++) {
                if (strings) {
                    subject.tryAcquire(Workload.name(i), caller);
                } else {
                    subject.tryAcquire(Workload.longKey(i), caller);
                }
            }
        } catch (OutOfMemoryError e) {
            subject = null;
            System.out.println(head + "\t-1\t-1\t-1\t-1\tOOM with -Xmx " + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB");
            return;
        }
        long heap = settledHeap() - heap0;
        long direct = direct() - direct0;
        System.out.println(String.format(Locale.ROOT, "%s\t%d\t%d\t%.1f\t%.1f\t%s", head, heap, direct,
                (double) heap / keys, (double) direct / keys, subject.describe()));
        Reference.reachabilityFence(subject);
        subject.close();
    }

    private static long settledHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long direct() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if ("direct".equals(pool.getName())) {
                return pool.getMemoryUsed();
            }
        }
        throw new IllegalStateException("no direct buffer pool bean");
    }
}
