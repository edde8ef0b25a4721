package dev.sluice.table;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The off-heap bytes Sluice's tables have reserved and not yet returned, across the process, and the cleaner that
 * returns them. A stripe's memory is returned when its owner becomes unreachable (a {@link Cleaner} action, run at
 * some point after the GC finds that), or at once by {@link OffHeapMemory#free} where nothing can still use it.
 * Each registration is counted once: a free after the cleaner ran (or the other way round) does nothing.
 */
public final class NativeMemoryLedger {

    private static final AtomicLong RESERVED = new AtomicLong();
    private static final Cleaner CLEANER = Cleaner.create();

    private NativeMemoryLedger() {
    }

    /** Bytes reserved by every live table of this process, including tables unreachable but not yet cleaned. */
    public static long reservedBytes() {
        return RESERVED.get();
    }

    /**
     * Counts {@code bytes} as reserved until {@code owner} is unreachable, then runs {@code free} and uncounts them.
     * {@code free} must not refer to {@code owner}, or it would keep it reachable forever.
     */
    static Cleaner.Cleanable reserve(Object owner, long bytes, Runnable free) {
        RESERVED.addAndGet(bytes);
        return CLEANER.register(owner, new Release(bytes, free));
    }

    /** The action run once per reservation, by the cleaner or by an eager free. */
    private static final class Release implements Runnable {
        private final long bytes;
        private final Runnable free;

        Release(long bytes, Runnable free) {
            this.bytes = bytes;
            this.free = free;
        }

        @Override
        public void run() {
            free.run();
            RESERVED.addAndGet(-bytes);
        }
    }
}
