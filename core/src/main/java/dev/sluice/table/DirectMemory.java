package dev.sluice.table;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Frees a direct buffer at once rather than at the next GC, through {@code sun.misc.Unsafe.invokeCleaner}, which the
 * {@code jdk.unsupported} module offers without any JVM flag. Where it is missing, the GC frees the buffer later.
 * Only for a buffer no thread can still use: a buffer dropped while accesses may be in flight is left to the JDK,
 * which frees it once unreachable.
 */
final class DirectMemory {

    private static final Object UNSAFE;
    private static final Method INVOKE_CLEANER;
    private static final Runnable NOTHING = () -> { };

    static {
        Object unsafe = null;
        Method cleaner = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            unsafe = field.get(null);
            cleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            unsafe = null;
            cleaner = null;
        }
        UNSAFE = unsafe;
        INVOKE_CLEANER = cleaner;
    }

    private DirectMemory() {
    }

    /** The ledger's action for a direct buffer: nothing to free, the JDK's own cleaner frees the buffer. */
    static Runnable leftToTheJdk() {
        return NOTHING;
    }

    static void free(ByteBuffer buffer) {
        if (buffer == null || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Left to the GC, which frees direct buffers when they become unreachable.
            return;
        }
    }
}
