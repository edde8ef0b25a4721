package dev.sluice.table;

import dev.sluice.MemoryBackend;

/** Makes the memory of a table's stripes with the backend asked for, and tells which backends this JVM allows. */
public final class MemoryFactory {

    private static final boolean AGRONA_USABLE = probeAgrona();

    private final MemoryBackend backend;

    private MemoryFactory(MemoryBackend backend) {
        this.backend = backend;
    }

    /** A factory for {@code requested}; AUTO resolves here, AGRONA on a JVM that forbids it fails here. */
    public static MemoryFactory of(MemoryBackend requested) {
        switch (requested) {
            case AUTO:
                return new MemoryFactory(AGRONA_USABLE ? MemoryBackend.AGRONA : MemoryBackend.VAR_HANDLE);
            case AGRONA:
                if (!AGRONA_USABLE) {
                    throw new IllegalStateException("memory AGRONA needs the JVM flag "
                            + "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED; use VAR_HANDLE or AUTO");
                }
                return new MemoryFactory(MemoryBackend.AGRONA);
            case VAR_HANDLE:
                return new MemoryFactory(MemoryBackend.VAR_HANDLE);
            default:
                throw new AssertionError(requested);
        }
    }

    /** Whether Agrona's {@code UnsafeBuffer} works on this JVM. */
    public static boolean agronaUsable() {
        return AGRONA_USABLE;
    }

    /** The backend this factory uses (never AUTO). */
    public MemoryBackend backend() {
        return backend;
    }

    OffHeapMemory allocate(int sizeBytes) {
        return backend == MemoryBackend.AGRONA ? new AgronaMemory(sizeBytes) : new VarHandleMemory(sizeBytes);
    }

    private static boolean probeAgrona() {
        try {
            OffHeapMemory probe = new AgronaMemory(64);
            boolean ok = probe.compareAndSetLong(0, 0L, 1L) && probe.getLongVolatile(0) == 1L;
            probe.free();
            return ok;
        } catch (LinkageError | RuntimeException e) {
            // Agrona 2.x throws IllegalAccessError (a LinkageError) when jdk.internal.misc is not exported to it.
            return false;
        }
    }
}
