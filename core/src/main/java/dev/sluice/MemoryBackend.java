package dev.sluice;

/** How the off-heap state tables reach their memory. */
public enum MemoryBackend {
    /** Agrona's {@code UnsafeBuffer} when this JVM allows it, else {@link #VAR_HANDLE}. Never fails. */
    AUTO,
    /** {@code MethodHandles.byteBufferViewVarHandle} over direct {@code ByteBuffer}s: needs no JVM flag. */
    VAR_HANDLE,
    /**
     * Agrona's {@code UnsafeBuffer}. Agrona 2.x needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED};
     * asking for it on a JVM without that flag fails at build time with a clear {@code IllegalStateException}.
     */
    AGRONA
}
