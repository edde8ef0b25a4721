package dev.sluice.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.table.MemoryFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link RateLimiter#close()} under traffic: calls complete or throw IllegalStateException, memory comes back. */
class CloseUnderTrafficTest {

    /** Child JVMs per backend, each running {@link #ROUNDS} close-under-traffic rounds. */
    private static final int CHILDREN = 3;
    private static final int ROUNDS = 40;

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void everyCallAfterCloseThrowsIllegalState(Algorithm algorithm) {
        RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 10, Duration.ofSeconds(1)))
                .clock(new ManualClock()).maxKeys(16).build();
        limiter.tryAcquire(1L, 1, 0);
        limiter.tryAcquire("a", 1, 0);
        limiter.close();
        limiter.close();
        Decision d = new Decision();
        assertThrows(IllegalStateException.class, () -> limiter.tryAcquire(1L, 1, 0));
        assertThrows(IllegalStateException.class, () -> limiter.tryAcquire(2L, 1));
        assertThrows(IllegalStateException.class, () -> limiter.tryAcquire("a", 1, 0, d));
        assertThrows(IllegalStateException.class, () -> limiter.tryAcquire("u", "a", 1, 0, d));
        assertThrows(IllegalStateException.class, () -> limiter.release(1L, 1, 0));
        assertThrows(IllegalStateException.class, () -> limiter.release("a", 1, 0));
        assertEquals(0, limiter.liveKeys());
    }

    @ParameterizedTest
    @EnumSource(value = MemoryBackend.class, names = {"UNSAFE", "VAR_HANDLE", "FFM"})
    void childJvmsClosingUnderEightCallingThreadsExitCleanly(MemoryBackend backend)
            throws IOException, InterruptedException {
        Assumptions.assumeTrue(backend != MemoryBackend.UNSAFE || MemoryFactory.unsafeUsable(), "no sun.misc.Unsafe");
        Assumptions.assumeTrue(backend != MemoryBackend.FFM || MemoryFactory.ffmUsable(), "FFM needs JDK 22+");
        runChildren(backend, false);
    }

    /** FFM with native access reaches memory by address, with no bounds check: only reachability keeps it valid. */
    @Test
    void childJvmsClosingFfmMemoryReachedByAddressUnderEightCallingThreadsExitCleanly()
            throws IOException, InterruptedException {
        Assumptions.assumeTrue(MemoryFactory.ffmUsable(), "FFM needs JDK 22+");
        runChildren(MemoryBackend.FFM, true);
    }

    private static void runChildren(MemoryBackend backend, boolean nativeAccess)
            throws IOException, InterruptedException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String what = backend + (nativeAccess ? " with native access" : "");
        for (int i = 0; i < CHILDREN; i++) {
            int child = i;
            File log = File.createTempFile("sluice-close-", ".log");
            log.deleteOnExit();
            List<String> command = new ArrayList<>(List.of(java, "-Xmx128m"));
            if (nativeAccess) {
                command.add("--enable-native-access=ALL-UNNAMED");
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"),
                    CloseUnderTrafficChild.class.getName(), backend.name(), Integer.toString(ROUNDS),
                    Boolean.toString(nativeAccess)));
            Process p = new ProcessBuilder(command)
                    .directory(log.getParentFile()).redirectErrorStream(true).redirectOutput(log).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("child " + child + " on " + what + " did not finish in 120 s");
            }
            String output = new String(Files.readAllBytes(log.toPath()), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), () -> "child " + child + " on " + what + " failed:\n" + output);
            if (backend == MemoryBackend.FFM) {
                assertFalse(output.contains("WARNING"), () -> "child " + child + " on " + what + " warned:\n" + output);
            }
        }
    }
}
