package dev.sluice;

/** How the off-heap state tables reach their memory. Every backend gives the same results; only speed differs. */
public enum MemoryBackend {
    /**
     * The fastest backend this JVM allows without a warning: {@link #UNSAFE} up to JDK 23, else {@link #AGRONA} when
     * its flag is given, else {@link #VAR_HANDLE}. Never fails.
     */
    AUTO,
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
