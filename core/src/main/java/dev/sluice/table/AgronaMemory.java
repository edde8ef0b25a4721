package dev.sluice.table;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Memory reached through Agrona's {@link UnsafeBuffer}. Only built after {@link MemoryFactory} has checked that this
 * JVM lets Agrona reach its unsafe access (Agrona 2.x needs
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}).
 *
 * <p>The JDK frees the buffer once it is unreachable; the {@link UnsafeBuffer} reaches it by raw address, so each
 * access ends with {@code Reference.reachabilityFence(this)}: this object, and through its final field the buffer,
 * stay reachable until the access is done.
 */
final class AgronaMemory implements OffHeapMemory {

    private final ByteBuffer buffer;
    private final UnsafeBuffer unsafe;
    /** Uncounts the buffer from the ledger when it is unreachable (the JDK frees it then), or on {@link #free}. */
    private final Cleaner.Cleanable cleanable;

    AgronaMemory(int sizeBytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(sizeBytes).order(ByteOrder.nativeOrder());
        this.buffer = b;
        this.unsafe = new UnsafeBuffer(b);
        this.cleanable = NativeMemoryLedger.reserve(b, sizeBytes, DirectMemory.leftToTheJdk());
    }

    @Override
    public long getLongVolatile(int offset) {
        try {
            return unsafe.getLongVolatile(offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public long getLongAcquire(int offset) {
        try {
            return unsafe.getLongAcquire(offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public long getLongPlain(int offset) {
        try {
            return unsafe.getLong(offset);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongPlain(int offset, long value) {
        try {
            unsafe.putLong(offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongRelease(int offset, long value) {
        try {
            unsafe.putLongRelease(offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        try {
            unsafe.putLongVolatile(offset, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        try {
            return unsafe.compareAndSetLong(offset, expected, value);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public int sizeBytes() {
        return unsafe.capacity();
    }

    @Override
    public void free() {
        cleanable.clean();
        DirectMemory.free(buffer);
    }
}
