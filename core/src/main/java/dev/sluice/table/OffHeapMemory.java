package dev.sluice.table;

import dev.sluice.algorithm.LongWords;

/**
 * One stripe of off-heap memory seen as 8-byte words. Offsets are in bytes, multiples of 8, below
 * {@link #sizeBytes()}. The memory order of each access is in its name; plain accesses give no ordering at all.
 * The memory starts zeroed.
 */
public interface OffHeapMemory extends LongWords {

    long getLongVolatile(int offset);

    long getLongAcquire(int offset);

    @Override
    long getLongPlain(int offset);

    @Override
    void putLongPlain(int offset, long value);

    void putLongRelease(int offset, long value);

    void putLongVolatile(int offset, long value);

    /** Volatile compare-and-set. */
    boolean compareAndSetLong(int offset, long expected, long value);

    int sizeBytes();

    /**
     * Returns the memory to the system at once. Only for an owner that knows no thread can still use it (a table
     * that failed to build, a test after its threads joined): every access after it is undefined. Memory that calls
     * may still be using is dropped instead, and returned by a cleaner once unreachable ({@link NativeMemoryLedger}).
     */
    void free();
}
