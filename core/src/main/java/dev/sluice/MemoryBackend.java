package dev.sluice;

/** How the off-heap state tables reach their memory. Every backend gives the same results; only speed differs. */
public enum MemoryBackend {
    /**
     * The fastest backend this JVM allows without a flag or a warning: {@link #FFM} from JDK 22, {@link #UNSAFE}
     * before, else {@link #VAR_HANDLE}. Never fails, and never loads a class that uses {@code sun.misc.Unsafe} on a
     * JDK where it warns.
     */
    AUTO,
    /**
     * The Foreign Function &amp; Memory API: a native {@code MemorySegment} of an automatic arena with the
     * {@code JAVA_LONG} layout's {@code VarHandle}. JDK 22 and later (the jar's multi-release layer); asking for it on
     * an older JDK fails at build time with a clear {@code IllegalStateException}. Where the JVM grants Sluice native
     * access ({@code --enable-native-access=dev.sluice.core}, or {@code =ALL-UNNAMED} on the class path), the memory
     * is reached by address through one constant segment, whose checks the JIT folds: about {@link #UNSAFE}'s speed.
     * Without that flag, through a segment per table stripe, which checks bounds and liveness on each access.
     */
    FFM,
    /** {@code MethodHandles.byteBufferViewVarHandle} over direct {@code ByteBuffer}s: needs no JVM flag. */
    VAR_HANDLE,
    /**
     * Agrona's {@code UnsafeBuffer}. Agrona 2.x needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED};
     * asking for it on a JVM without that flag fails at build time with a clear {@code IllegalStateException}.
     */
    AGRONA,
    /**
     * {@code sun.misc.Unsafe} (module {@code jdk.unsupported}) on native memory: needs no JVM flag. From JDK 24 the
     * JDK prints a warning at its first use (JEP 498), so {@link #AUTO} does not pick it there; asking for it on a
     * JVM without it fails at build time with a clear {@code IllegalStateException}.
     */
    UNSAFE
}
