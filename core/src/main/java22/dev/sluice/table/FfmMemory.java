package dev.sluice.table;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Memory reached through the Foreign Function &amp; Memory API (JDK 22+): a zeroed native {@link MemorySegment} and
 * the {@code JAVA_LONG} layout's {@link VarHandle} for atomic 8-byte accesses on aligned offsets, with no JVM flag
 * and no {@code sun.misc.Unsafe}.
 *
 * <p>The segment belongs to an automatic arena: the GC frees it once this object (and so the segment) is
 * unreachable. A call still holding the memory keeps it alive, so a table dropped while calls are in flight is
 * never freed under them, and {@link #free()} cannot return it sooner. The ledger counts the bytes until the segment
 * is collected.
 */
final class FfmMemory implements OffHeapMemory {

    /** Coordinates (segment, byte offset); 8-byte aligned accesses, the only ones the tables make. */
    private static final VarHandle LONGS = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment segment;
    private final int sizeBytes;

    FfmMemory(int sizeBytes) {
        // Arena.allocate zeroes the memory; 8-byte alignment matches the layout's.
        MemorySegment s = Arena.ofAuto().allocate(sizeBytes, Long.BYTES);
        this.segment = s;
        this.sizeBytes = sizeBytes;
        // Counted until the segment is unreachable; the arena frees it then, so the ledger's action has nothing to do.
        NativeMemoryLedger.reserve(s, sizeBytes, () -> { });
    }

    @Override
    public long getLongVolatile(int offset) {
        return (long) LONGS.getVolatile(segment, (long) offset);
    }

    @Override
    public long getLongAcquire(int offset) {
        return (long) LONGS.getAcquire(segment, (long) offset);
    }

    @Override
    public long getLongPlain(int offset) {
        return (long) LONGS.get(segment, (long) offset);
    }

    @Override
    public void putLongPlain(int offset, long value) {
        LONGS.set(segment, (long) offset, value);
    }

    @Override
    public void putLongRelease(int offset, long value) {
        LONGS.setRelease(segment, (long) offset, value);
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        LONGS.setVolatile(segment, (long) offset, value);
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        return LONGS.compareAndSet(segment, (long) offset, expected, value);
    }

    @Override
    public int sizeBytes() {
        return sizeBytes;
    }

    @Override
    public void free() {
        // The automatic arena frees the segment, and the ledger uncounts it, only when it becomes unreachable.
    }
}
