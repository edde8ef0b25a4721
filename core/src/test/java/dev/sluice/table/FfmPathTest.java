package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Which way the FFM backend reaches its memory: by address through one constant segment exactly when the JVM grants
 * Sluice native access, else through a segment per stripe. The build runs the tests both ways on JDK 22+ and tells
 * each run which it is ({@code sluice.test.nativeAccess}).
 */
class FfmPathTest {

    @Test
    void ffmGoesByAddressExactlyWhenNativeAccessIsEnabled() {
        Assumptions.assumeTrue(MemoryFactory.ffmUsable(), "FFM needs JDK 22+");
        boolean granted = Boolean.getBoolean("sluice.test.nativeAccess");
        assertEquals(granted, MemoryFactory.ffmByAddress());
        OffHeapMemory memory = MemoryFactory.of(dev.sluice.MemoryBackend.FFM).allocate(64);
        assertEquals(granted ? "FfmAddressMemory" : "FfmMemory", memory.getClass().getSimpleName());
        // The memory starts zeroed and keeps what is written, at the last word too.
        assertEquals(0L, memory.getLongVolatile(56));
        memory.putLongRelease(56, 7L);
        assertEquals(true, memory.compareAndSetLong(56, 7L, 9L));
        assertEquals(9L, memory.getLongPlain(56));
    }
}
