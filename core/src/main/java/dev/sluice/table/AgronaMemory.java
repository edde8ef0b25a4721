package dev.sluice.table;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Memory reached through Agrona's {@link UnsafeBuffer}. Only built after {@link MemoryFactory} has checked that this
 * JVM lets Agrona reach its unsafe access (Agrona 2.x needs
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}).
 */
final class AgronaMemory implements OffHeapMemory {

    private ByteBuffer buffer;
    private final UnsafeBuffer unsafe;

    AgronaMemory(int sizeBytes) {
        this.buffer = ByteBuffer.allocateDirect(sizeBytes).order(ByteOrder.nativeOrder());
        this.unsafe = new UnsafeBuffer(buffer);
    }

    @Override
    public long getLongVolatile(int offset) {
        return unsafe.getLongVolatile(offset);
    }

    @Override
    public long getLongAcquire(int offset) {
        return unsafe.getLongAcquire(offset);
    }

    @Override
    public long getLongPlain(int offset) {
        return unsafe.getLong(offset);
    }

    @Override
    public void putLongPlain(int offset, long value) {
        unsafe.putLong(offset, value);
    }

    @Override
    public void putLongRelease(int offset, long value) {
        unsafe.putLongRelease(offset, value);
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        unsafe.putLongVolatile(offset, value);
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        return unsafe.compareAndSetLong(offset, expected, value);
    }

    @Override
    public int sizeBytes() {
        return unsafe.capacity();
    }

    @Override
    public void free() {
        ByteBuffer b = buffer;
        buffer = null;
        unsafe.wrap(new byte[0]);
        DirectMemory.free(b);
    }
}
