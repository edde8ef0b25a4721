package dev.sluice;

import dev.sluice.table.NativeMemoryLedger;

/**
 * The process-wide off-heap memory of Sluice's limiters.
 *
 * <p>A limiter's tables live off the Java heap. {@link RateLimiter#close()} does not free them on the spot, because a
 * call that started before {@code close()} may still be inside them: {@code close()} drops the limiter's references
 * to its tables, and each table's memory is returned to the system once no thread can reach it any more, after a
 * garbage collection has found it unreachable (as the JDK does for direct buffers). So the memory of closed limiters
 * may linger until the next collection that looks at them: that is the slack between what the live limiters use and
 * {@link #reservedBytes()}.
 */
public final class OffHeap {

    private OffHeap() {
    }

    /**
     * Bytes of off-heap memory that Sluice's tables hold now: those of every open limiter, plus those of closed
     * limiters not yet returned (see the class comment). Read with no lock; exact once no table is being built or
     * returned.
     */
    public static long reservedBytes() {
        return NativeMemoryLedger.reservedBytes();
    }
}
