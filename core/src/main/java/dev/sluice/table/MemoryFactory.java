package dev.sluice.table;

import dev.sluice.MemoryBackend;

/** Makes the memory of a table's stripes with the backend asked for, and tells which backends this JVM allows. */
public final class MemoryFactory {

    /** The first JDK that warns when sun.misc.Unsafe's memory access is used (JEP 498). */
    private static final int UNSAFE_WARNS_FROM = 24;
    private static final boolean AGRONA_USABLE = probe(MemoryBackend.AGRONA);
    private static final boolean UNSAFE_USABLE = probe(MemoryBackend.UNSAFE);

    private final MemoryBackend backend;

    private MemoryFactory(MemoryBackend backend) {
        this.backend = backend;
    }

    /** A factory for {@code requested}; AUTO resolves here, a backend this JVM forbids fails here. */
    public static MemoryFactory of(MemoryBackend requested) {
        switch (requested) {
            case AUTO:
                return new MemoryFactory(autoChoice());
            case AGRONA:
                if (!AGRONA_USABLE) {
                    throw new IllegalStateException("memory AGRONA needs the JVM flag "
                            + "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED; use VAR_HANDLE or AUTO");
                }
                return new MemoryFactory(MemoryBackend.AGRONA);
            case UNSAFE:
                if (!UNSAFE_USABLE) {
                    throw new IllegalStateException("memory UNSAFE needs sun.misc.Unsafe (module jdk.unsupported), "
                            + "which this JVM does not offer; use VAR_HANDLE or AUTO");
                }
                return new MemoryFactory(MemoryBackend.UNSAFE);
            case VAR_HANDLE:
                return new MemoryFactory(MemoryBackend.VAR_HANDLE);
            default:
                throw new AssertionError(requested);
        }
    }

    private static MemoryBackend autoChoice() {
        if (UNSAFE_USABLE && Runtime.version().feature() < UNSAFE_WARNS_FROM) {
            return MemoryBackend.UNSAFE;
        }
        return AGRONA_USABLE ? MemoryBackend.AGRONA : MemoryBackend.VAR_HANDLE;
    }

    /** Whether Agrona's {@code UnsafeBuffer} works on this JVM. */
    public static boolean agronaUsable() {
        return AGRONA_USABLE;
    }

    /** Whether {@code sun.misc.Unsafe}'s memory access works on this JVM. */
    public static boolean unsafeUsable() {
        return UNSAFE_USABLE;
    }

    /** The backend this factory uses (never AUTO). */
    public MemoryBackend backend() {
        return backend;
    }

    OffHeapMemory allocate(int sizeBytes) {
        return allocate(backend, sizeBytes);
    }

    private static OffHeapMemory allocate(MemoryBackend backend, int sizeBytes) {
        switch (backend) {
            case AGRONA:
                return new AgronaMemory(sizeBytes);
            case UNSAFE:
                return new UnsafeMemory(sizeBytes);
            default:
                return new VarHandleMemory(sizeBytes);
        }
    }

    private static boolean probe(MemoryBackend backend) {
        try {
            OffHeapMemory probe = allocate(backend, 64);
            boolean ok = probe.compareAndSetLong(8, 0L, 1L) && probe.getLongVolatile(8) == 1L
                    && probe.getLongPlain(0) == 0L;
            probe.free();
            return ok;
        } catch (LinkageError | RuntimeException e) {
            // Agrona 2.x throws IllegalAccessError (a LinkageError) when jdk.internal.misc is not exported to it;
            // UnsafeMemory throws IllegalStateException where sun.misc.Unsafe is missing.
            return false;
        }
    }
}
