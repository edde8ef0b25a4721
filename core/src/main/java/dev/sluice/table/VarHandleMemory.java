package dev.sluice.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Memory reached through {@code MethodHandles.byteBufferViewVarHandle} over a direct {@link ByteBuffer}: atomic
 * 8-byte accesses (volatile, acquire/release, CAS) on aligned offsets, with no JVM flag.
 *
 * <p>The JDK frees the buffer once it is unreachable. A view VarHandle's access does not itself keep its buffer
 * reachable to the end of the access, so each access ends with {@code Reference.reachabilityFence(this)}: this
 * object, and through its final field the buffer, stay reachable until the access is done.
 */
final class VarHandleMemory implements OffHeapMemory {

    private static final VarHandle LONGS =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final ByteBuffer buffer;
    /** Uncounts the buffer from the ledger when it is unreachable (the JDK frees it then), or on {@link #free}. */
    private final Cleaner.Cleanable cleanable;

    VarHandleMemory(int sizeBytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(sizeBytes).order(ByteOrder.nativeOrder());
        this.buffer = b;
        this.cleanable = NativeMemoryLedger.reserve(b, sizeBytes, DirectMemory.leftToTheJdk());
    }

    @Override
    public long getLongVolatile(int offset) {
        try {
            return (long) LONGS.getVolatile(buffer, offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public long getLongAcquire(int offset) {
        try {
            return (long) LONGS.getAcquire(buffer, offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public long getLongPlain(int offset) {
        try {
            return (long) LONGS.get(buffer, offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongPlain(int offset, long value) {
        try {
            LONGS.set(buffer, offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongRelease(int offset, long value) {
        try {
            LONGS.setRelease(buffer, offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        try {
            LONGS.setVolatile(buffer, offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        try {
            return LONGS.compareAndSet(buffer, offset, expected, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public int sizeBytes() {
        return buffer.capacity();
    }

    @Override
    public void free() {
        cleanable.clean();
        DirectMemory.free(buffer);
    }
}
