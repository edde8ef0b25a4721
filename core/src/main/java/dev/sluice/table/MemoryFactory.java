package dev.sluice.table;

import dev.sluice.MemoryBackend;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Makes the memory of a table's stripes with the backend asked for, and tells which backends this JVM allows.
 *
 * <p>Each backend is probed on first need, in a holder class of its own, so asking for one never initialises a
 * class that touches another: on a JDK where {@code sun.misc.Unsafe}'s memory access warns, AUTO never loads
 * {@link UnsafeMemory}.
 */
public final class MemoryFactory {

    /** The first JDK that warns when sun.misc.Unsafe's memory access is used (JEP 498). */
    private static final int UNSAFE_WARNS_FROM = 24;
    /** The first JDK with the final Foreign Function &amp; Memory API (JEP 454). */
    private static final int FFM_FROM = 22;

    private final MemoryBackend backend;

    private MemoryFactory(MemoryBackend backend) {
        this.backend = backend;
    }

    /** A factory for {@code requested}; AUTO resolves here, a backend this JVM forbids fails here. */
    public static MemoryFactory of(MemoryBackend requested) {
        switch (requested) {
            case AUTO:
                return new MemoryFactory(autoChoice());
            case FFM:
                if (!ffmUsable()) {
                    throw new IllegalStateException("memory FFM needs JDK " + FFM_FROM + " or later (this is JDK "
                            + Runtime.version().feature() + "); use VAR_HANDLE or AUTO");
                }
                return new MemoryFactory(MemoryBackend.FFM);
            case AGRONA:
                if (!agronaUsable()) {
                    throw new IllegalStateException("memory AGRONA needs Agrona on the class path and the JVM flag "
                            + "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED; use VAR_HANDLE or AUTO");
                }
                return new MemoryFactory(MemoryBackend.AGRONA);
            case UNSAFE:
                if (!unsafeUsable()) {
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

    /** FFM from JDK 22, else UNSAFE (it does not warn before JDK 24), else VAR_HANDLE: never a flag, never a warning. */
    private static MemoryBackend autoChoice() {
        if (ffmUsable()) {
            return MemoryBackend.FFM;
        }
        if (Runtime.version().feature() < UNSAFE_WARNS_FROM && unsafeUsable()) {
            return MemoryBackend.UNSAFE;
        }
        return MemoryBackend.VAR_HANDLE;
    }

    /** Whether the FFM backend is present (the multi-release jar's JDK 22 classes) and works on this JVM. */
    public static boolean ffmUsable() {
        return Runtime.version().feature() >= FFM_FROM && Ffm.USABLE;
    }

    /**
     * Whether the FFM backend reaches its memory through one constant segment, which it does when the application
     * enables native access for Sluice ({@code --enable-native-access=dev.sluice.core}, or {@code ALL-UNNAMED} on the
     * class path): level with {@code sun.misc.Unsafe} on a hot key, about 1.05x behind it on 1M keys. Without it, a
     * segment per stripe, whose checks leave it 1.1x to 1.16x behind on a hot key.
     */
    public static boolean ffmByAddress() {
        return ffmUsable() && Ffm.NATIVE_ACCESS;
    }

    /** Whether Agrona's {@code UnsafeBuffer} works on this JVM. */
    public static boolean agronaUsable() {
        return Agrona.USABLE;
    }

    /** Whether {@code sun.misc.Unsafe}'s memory access works on this JVM. */
    public static boolean unsafeUsable() {
        return Unsafe.USABLE;
    }

    /** The backend this factory uses (never AUTO). */
    public MemoryBackend backend() {
        return backend;
    }

    OffHeapMemory allocate(int sizeBytes) {
        switch (backend) {
            case FFM:
                return Ffm.allocate(sizeBytes);
            case AGRONA:
                return new AgronaMemory(sizeBytes);
            case UNSAFE:
                return new UnsafeMemory(sizeBytes);
            default:
                return new VarHandleMemory(sizeBytes);
        }
    }

    private static boolean works(OffHeapMemory probe) {
        boolean ok = probe.compareAndSetLong(8, 0L, 1L) && probe.getLongVolatile(8) == 1L && probe.getLongPlain(0) == 0L;
        probe.free();
        return ok;
    }

    /** Probed on first use of the UNSAFE backend only. */
    private static final class Unsafe {
        static final boolean USABLE = probe();

        private static boolean probe() {
            try {
                return works(new UnsafeMemory(64));
            } catch (LinkageError | RuntimeException e) {
                // UnsafeMemory throws IllegalStateException where sun.misc.Unsafe is missing.
                return false;
            }
        }
    }

    /** Probed on first use of the AGRONA backend only. */
    private static final class Agrona {
        static final boolean USABLE = probe();

        private static boolean probe() {
            try {
                return works(new AgronaMemory(64));
            } catch (LinkageError | RuntimeException e) {
                // Agrona 2.x throws IllegalAccessError (a LinkageError) when jdk.internal.misc is not exported to it;
                // NoClassDefFoundError when Agrona (an optional dependency) is absent.
                return false;
            }
        }
    }

    /**
     * The FFM backend's class exists only in the multi-release jar's JDK 22 layer, so it is reached by name: on an
     * older JDK, or a build made without that layer, it is simply absent.
     */
    private static final class Ffm {
        /** Whether this module may call restricted FFM methods without the JDK printing a warning. */
        static final boolean NATIVE_ACCESS = nativeAccessEnabled();
        private static final MethodHandle CREATE = find();
        static final boolean USABLE = CREATE != null && probe();

        private static boolean nativeAccessEnabled() {
            if (Runtime.version().feature() < FFM_FROM) {
                return false;
            }
            try {
                // Module.isNativeAccessEnabled is JDK 22 API; this class is compiled for 17.
                return (boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(MemoryFactory.class.getModule());
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
        }

        private static MethodHandle find() {
            if (Runtime.version().feature() < FFM_FROM) {
                return null;
            }
            try {
                // With native access, the memory is reached through one constant segment (checks folded by the JIT);
                // without it, through a segment per stripe, which needs no restricted method and so never warns.
                Class<?> type = Class.forName(NATIVE_ACCESS ? "dev.sluice.table.FfmAddressMemory"
                        : "dev.sluice.table.FfmMemory");
                return MethodHandles.lookup().findConstructor(type, MethodType.methodType(void.class, int.class))
                        .asType(MethodType.methodType(OffHeapMemory.class, int.class));
            } catch (ReflectiveOperationException | LinkageError e) {
                return null;
            }
        }

        private static boolean probe() {
            try {
                return works(allocate(64));
            } catch (RuntimeException | LinkageError e) {
                return false;
            }
        }

        static OffHeapMemory allocate(int sizeBytes) {
            try {
                return (OffHeapMemory) CREATE.invokeExact(sizeBytes);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException("FFM memory could not be allocated", e);
            }
        }
    }
}
