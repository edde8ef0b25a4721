package dev.sluice.table;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.lang.reflect.Field;

/**
 * Memory reached through {@code sun.misc.Unsafe} on raw native memory: no bounds, scope or alignment checks on an
 * access, which is what makes it the fastest backend. {@code sun.misc.Unsafe} lives in the {@code jdk.unsupported}
 * module, open to every class without a JVM flag. It is reached through method handles held in static finals: the
 * JIT treats them as constants and inlines the intrinsic, and the source names no internal API (javac would warn).
 *
 * <p>Offsets are trusted: they come from {@link KeyTable}'s own layout. The raw memory is returned by a cleaner once
 * this object is unreachable; every access ends with {@code Reference.reachabilityFence(this)}, so this object stays
 * reachable until the access is done (without the fence the JIT may drop {@code this} as soon as it has read
 * {@code address}, and the cleaner could free the memory under the access). {@link #free} returns it at once, for
 * owners that know no thread can still use it.
 */
final class UnsafeMemory implements OffHeapMemory {

    private static final MethodHandle GET_VOLATILE;
    private static final MethodHandle GET_PLAIN;
    private static final MethodHandle PUT_PLAIN;
    private static final MethodHandle PUT_ORDERED;
    private static final MethodHandle PUT_VOLATILE;
    private static final MethodHandle CAS;
    private static final MethodHandle ALLOCATE;
    private static final MethodHandle SET_MEMORY;
    private static final MethodHandle FREE;
    private static final Throwable UNAVAILABLE;

    static {
        MethodHandle[] h = new MethodHandle[9];
        Throwable failure = null;
        try {
            Class<?> type = Class.forName("sun.misc.Unsafe");
            Field field = type.getDeclaredField("theUnsafe");
            field.setAccessible(true);
            Object unsafe = field.get(null);
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Class<?> o = Object.class;
            Class<?> l = long.class;
            h[0] = bind(lookup, type, unsafe, "getLongVolatile", MethodType.methodType(l, o, l));
            h[1] = bind(lookup, type, unsafe, "getLong", MethodType.methodType(l, o, l));
            h[2] = bind(lookup, type, unsafe, "putLong", MethodType.methodType(void.class, o, l, l));
            h[3] = bind(lookup, type, unsafe, "putOrderedLong", MethodType.methodType(void.class, o, l, l));
            h[4] = bind(lookup, type, unsafe, "putLongVolatile", MethodType.methodType(void.class, o, l, l));
            h[5] = bind(lookup, type, unsafe, "compareAndSwapLong", MethodType.methodType(boolean.class, o, l, l, l));
            h[6] = bind(lookup, type, unsafe, "allocateMemory", MethodType.methodType(l, l));
            h[7] = bind(lookup, type, unsafe, "setMemory", MethodType.methodType(void.class, l, l, byte.class));
            h[8] = bind(lookup, type, unsafe, "freeMemory", MethodType.methodType(void.class, l));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            failure = e;
        }
        GET_VOLATILE = h[0];
        GET_PLAIN = h[1];
        PUT_PLAIN = h[2];
        PUT_ORDERED = h[3];
        PUT_VOLATILE = h[4];
        CAS = h[5];
        ALLOCATE = h[6];
        SET_MEMORY = h[7];
        FREE = h[8];
        UNAVAILABLE = failure;
    }

    private static MethodHandle bind(MethodHandles.Lookup lookup, Class<?> type, Object unsafe, String name,
            MethodType signature) throws ReflectiveOperationException {
        return lookup.findVirtual(type, name, signature).bindTo(unsafe);
    }

    private final int sizeBytes;
    /** What allocateMemory returned, rounded up to 8: the atomic accesses need aligned words. */
    private final long address;
    /** Returns the memory: run by the cleaner once this object is unreachable, or by {@link #free}. */
    private final Cleaner.Cleanable cleanable;

    UnsafeMemory(int sizeBytes) {
        if (UNAVAILABLE != null) {
            throw new IllegalStateException("sun.misc.Unsafe is not available on this JVM", UNAVAILABLE);
        }
        this.sizeBytes = sizeBytes;
        try {
            long raw = (long) ALLOCATE.invokeExact((long) sizeBytes + 8);
            SET_MEMORY.invokeExact(raw, (long) sizeBytes + 8, (byte) 0);
            this.address = (raw + 7) & ~7L;
            this.cleanable = NativeMemoryLedger.reserve(this, (long) sizeBytes + 8, new FreeRaw(raw));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether this JVM offers {@code sun.misc.Unsafe}'s memory access. */
    static boolean available() {
        return UNAVAILABLE == null;
    }

    @Override
    public long getLongVolatile(int offset) {
        try {
            return (long) GET_VOLATILE.invokeExact((Object) null, address + offset);
        } catch (Throwable e) {
            throw rethrow(e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** sun.misc.Unsafe has no acquire load: a volatile load is at least as strong (and a plain load on x86). */
    @Override
    public long getLongAcquire(int offset) {
        return getLongVolatile(offset);
    }

    @Override
    public long getLongPlain(int offset) {
        try {
            return (long) GET_PLAIN.invokeExact((Object) null, address + offset);
        } catch (Throwable e) {
            throw rethrow(e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongPlain(int offset, long value) {
        try {
            PUT_PLAIN.invokeExact((Object) null, address + offset, value);
        } catch (Throwable e) {
            throw rethrow(e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** putOrderedLong is a release store. */
    @Override
    public void putLongRelease(int offset, long value) {
        try {
            PUT_ORDERED.invokeExact((Object) null, address + offset, value);
        } catch (Throwable e) {
            throw rethrow(e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public void putLongVolatile(int offset, long value) {
        try {
            PUT_VOLATILE.invokeExact((Object) null, address + offset, value);
        } catch (Throwable e) {
            throw rethrow(e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public boolean compareAndSetLong(int offset, long expected, long value) {
        try {
            return (boolean) CAS.invokeExact((Object) null, address + offset, expected, value);
        } catch (Throwable e) {
            throw rethrow(e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    @Override
    public int sizeBytes() {
        return sizeBytes;
    }

    @Override
    public void free() {
        cleanable.clean();
    }

    /** Frees one allocation; holds the raw address only, never the memory object (that would keep it reachable). */
    private static final class FreeRaw implements Runnable {
        private final long raw;

        FreeRaw(long raw) {
            this.raw = raw;
        }

        @Override
        public void run() {
            try {
                FREE.invokeExact(raw);
            } catch (Throwable e) {
                throw rethrow(e);
            }
        }
    }

    /** The handles throw only what Unsafe throws: unchecked exceptions and errors. */
    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException) {
            throw (RuntimeException) e;
        }
        if (e instanceof Error) {
            throw (Error) e;
        }
        throw new IllegalStateException(e);
    }
}
