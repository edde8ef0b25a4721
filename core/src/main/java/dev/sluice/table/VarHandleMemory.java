package dev.sluice.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Memory reached through {@code MethodHandles.byteBufferViewVarHandle} over a direct {@link ByteBuffer}: atomic
 * 8-byte accesses (volatile, acquire/release, CAS) on aligned offsets, with no JVM flag.
 */
final class VarHandleMemory implements OffHeapMemory {

    private static final VarHandle LONGS =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private ByteBuffer buffer;

    VarHandleMemory(int sizeBytes) {
        this.buffer = ByteBuffer.allocateDirect(sizeBytes).order(ByteOrder.nativeOrder());
    }

    @Override
    public long getLongVolatile(int offset) {
        return (long) LONGS.getVolatile(buffer, offset);
    }

    @Override
    public long getLongAcquire(int offset) {
        return (long) LONGS.getAcquire(buffer, offset);
    }

    @Override
    public long getLongPlain(int offset) {
        return (long) LONGS.get(buffer, offset);
    }

    @Override
    public void putLongPlain(int offset, long value) {
        LONGS.set(buffer, offset, value);
    }

    @Override
    public void putLongRelease(int offset, long value) {
        LONGS.setRelease(buffer, offset, value);
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        LONGS.setVolatile(buffer, offset, value);
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        return LONGS.compareAndSet(buffer, offset, expected, value);
    }

    @Override
    public int sizeBytes() {
        return buffer.capacity();
    }

    @Override
    public void free() {
        ByteBuffer b = buffer;
        buffer = null;
        DirectMemory.free(b);
    }
}
