package dev.sluice.table;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;

/**
 * The FFM backend where the application grants Sluice native access ({@code --enable-native-access}): the memory is
 * allocated as in {@link FfmMemory}, but reached by its address through one constant segment that spans the address
 * space. A constant segment's checks fold in the JIT where a per-stripe segment's are made on every access: the
 * decision compiles to the size it has on {@link UnsafeMemory} (against about twice that through per-stripe
 * segments), with no {@code sun.misc.Unsafe}.
 *
 * <p>Like {@link UnsafeMemory}, an access no longer checks its offset against the memory: the tables compute every
 * offset below {@link #sizeBytes()}. The allocation lives as long as this object, which each access keeps reachable to
 * its end ({@code Reference.reachabilityFence(this)}), so a table dropped under traffic is never freed under a call.
 */
@SuppressWarnings("restricted") // made only when native access is enabled for this module, so the JDK prints nothing
final class FfmAddressMemory implements OffHeapMemory {

    /** The whole address space; reinterpret is restricted, which is why this class is used only with native access. */
    private static final MemorySegment EVERYWHERE = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    /** Coordinates (segment, byte address); every address here is 8-byte aligned. */
    private static final VarHandle LONGS = ValueLayout.JAVA_LONG.varHandle();
    /** The same for plain accesses, which need no alignment: the JIT then has no alignment check left to make. */
    private static final VarHandle PLAIN = ValueLayout.JAVA_LONG_UNALIGNED.varHandle();

    /** Above every user-space address of x86-64 and AArch64, 5-level paging included. */
    private static final long ADDRESS_LIMIT = 1L << 56;
    /**
     * The bits a word's address may have: 8-byte aligned, below {@link #ADDRESS_LIMIT}. Each address is masked with
     * it, so the JIT knows it aligned and in range and folds the segment's alignment and bounds checks; the
     * constructor rejects memory that does not fit, so the mask never changes an address.
     */
    private static final long ADDRESS_BITS = (ADDRESS_LIMIT - 1) & ~7L;

    /** Holds the allocation: the automatic arena frees it once this object is unreachable. */
    private final MemorySegment segment;
    private final long address;
    private final int sizeBytes;

    FfmAddressMemory(int sizeBytes) {
        // Arena.allocate zeroes the memory; 8-byte alignment matches the layout's.
        MemorySegment s = Arena.ofAuto().allocate(sizeBytes, Long.BYTES);
        this.segment = s;
        long start = s.address();
        if ((start & 7) != 0 || start < 0 || start + sizeBytes > ADDRESS_LIMIT) {
            throw new IllegalStateException("native memory at 0x" + Long.toHexString(start)
                    + " lies outside the 8-byte aligned addresses below 2^56 that this backend reaches");
        }
        this.address = start;
        this.sizeBytes = sizeBytes;
        NativeMemoryLedger.reserve(s, sizeBytes, () -> { });
    }

    @Override
    public long getLongVolatile(int offset) {
        try {
            return (long) LONGS.getVolatile(EVERYWHERE, at(offset));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public long getLongAcquire(int offset) {
        try {
            return (long) LONGS.getAcquire(EVERYWHERE, at(offset));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public long getLongPlain(int offset) {
        try {
            return (long) PLAIN.get(EVERYWHERE, at(offset));
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongPlain(int offset, long value) {
        try {
            PLAIN.set(EVERYWHERE, at(offset), value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongRelease(int offset, long value) {
        try {
            LONGS.setRelease(EVERYWHERE, at(offset), value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        try {
            LONGS.setVolatile(EVERYWHERE, at(offset), value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        try {
            return LONGS.compareAndSet(EVERYWHERE, at(offset), expected, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The address of the word at {@code offset}: aligned and in range by its type, which the JIT sees. */
    private long at(int offset) {
        return (address + offset) & ADDRESS_BITS;
    }

    @Override
    public int sizeBytes() {
        return sizeBytes;
    }

    @Override
    public void free() {
        // As in FfmMemory: the automatic arena frees the memory once this object is unreachable.
    }
}
