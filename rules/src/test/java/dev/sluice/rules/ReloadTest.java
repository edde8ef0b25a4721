package dev.sluice.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.RuleSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reload installs a valid file at once, keeps the state of unchanged limits, and never disturbs requests. */
class ReloadTest {

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    private RateLimiterService service() {
        return RateLimiterService.builder().clock(clock).maxKeysPerLimiter(1024)
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1))).build();
    }

    /** Writes {@code text} to {@code file} as a whole: a reader sees the old file or the new one. */
    private void write(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(dir, "rules", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String fixed(long limit, String window) {
        return "default: {algorithm: fixed_window, limit: " + limit + ", window: " + window + "}\n";
    }

    @Test
    void reloadInstallsTheFilesRules() throws Exception {
        Path file = dir.resolve("rules.yaml");
        write(file, fixed(2, "1h") + "rules:\n  - {user: vip, algorithm: fixed_window, limit: 5, window: 1h}\n");
        try (RateLimiterService service = service()) {
            RuleSet installed = RuleFiles.reload(file, service);
            assertEquals(installed, service.rules());
            assertTrue(service.allow("joe", "/a"));
            assertTrue(service.allow("joe", "/a"));
            assertFalse(service.allow("joe", "/a"));
            for (int i = 0; i < 5; i++) {
                assertTrue(service.allow("vip", "/a"));
            }
            assertFalse(service.allow("vip", "/a"));
        }
    }

    @Test
    void invalidFileLeavesTheCurrentRulesServingAndSaysWhy() throws Exception {
        Path file = dir.resolve("rules.yaml");
        write(file, fixed(2, "1h"));
        try (RateLimiterService service = service()) {
            RuleSet good = RuleFiles.reload(file, service);
            assertTrue(service.allow("joe", "/a"));
            write(file, "default: {algorithm: fixed_window, limit: 2, window: 1 hour}\n");
            RuleFileException e = assertThrows(RuleFileException.class, () -> RuleFiles.reload(file, service));
            assertEquals(file + ":1:46: default.window: '1 hour' is not a duration; write a whole number and a unit "
                    + "(ms, s, m, h, d), or several, such as 500ms, 1s, 10m, 1h30m, 1d", e.getMessage());
            assertEquals(good, service.rules());
            assertTrue(service.allow("joe", "/a"));
            assertFalse(service.allow("joe", "/a"));
        }
    }

    @Test
    void rulesTheServiceRefusesLeaveTheCurrentRulesServing() throws Exception {
        Path file = dir.resolve("rules.yaml");
        write(file, fixed(2, "1h"));
        try (RateLimiterService service = service()) {
            RuleSet good = RuleFiles.reload(file, service);
            write(file, fixed(2, "1h") + "rules:\n  - {api: /x, algorithm: fixed_window, limit: 1, window: 1s, "
                    + "backend: nowhere}\n");
            RuleFileException e = assertThrows(RuleFileException.class, () -> RuleFiles.reload(file, service));
            assertTrue(e.problem().startsWith("the service refused these rules: "), e.problem());
            assertTrue(e.problem().contains("nowhere"), e.problem());
            assertEquals(good, service.rules());
        }
    }

    @Test
    void reloadKeepsTheStateOfLimitsThatDidNotChange() throws Exception {
        Path file = dir.resolve("rules.yaml");
        write(file, fixed(3, "1h") + "rules:\n  - {user: vip, algorithm: fixed_window, limit: 5, window: 1h}\n");
        try (RateLimiterService service = service()) {
            RuleFiles.reload(file, service);
            assertTrue(service.allow("joe", "/a"));
            assertTrue(service.allow("joe", "/a"));
            write(file, fixed(3, "1h") + "rules:\n  - {user: vip, algorithm: fixed_window, limit: 50, window: 1h}\n");
            RuleFiles.reload(file, service);
            assertTrue(service.allow("joe", "/a"));
            assertFalse(service.allow("joe", "/a"));
        }
    }

    @Test
    void reloadUnderTrafficDecidesEveryRequestByTheOldOrTheNewRules() throws Exception {
        long oldLimit = 1_000_000;
        long newLimit = 2_000_000;
        Path file = dir.resolve("rules.json");
        String oldRules = "{\"default\": {\"algorithm\": \"fixed_window\", \"limit\": " + oldLimit + ", \"window\": \"1h\"}}";
        String newRules = "{\"default\": {\"algorithm\": \"token_bucket\", \"limit\": " + newLimit + ", \"window\": \"1h\"}}";
        write(file, oldRules);
        try (RateLimiterService service = service()) {
            RuleFiles.reload(file, service);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong requests = new AtomicLong();
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            CountDownLatch started = new CountDownLatch(2);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                String user = "user" + t;
                Thread caller = new Thread(() -> {
                    Decision d = new Decision();
                    started.countDown();
                    try {
                        while (!stop.get()) {
                            if (!service.allow(user, "/a", 1, d) || (d.limit() != oldLimit && d.limit() != newLimit)) {
                                problems.add("allowed " + d.allowed() + " with limit " + d.limit());
                            }
                            requests.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        problems.add(e.toString());
                    }
                });
                caller.start();
                callers.add(caller);
            }
            started.await();
            for (int i = 0; i < 200; i++) {
                write(file, i % 2 == 0 ? newRules : oldRules);
                RuleFiles.reload(file, service);
            }
            stop.set(true);
            for (Thread caller : callers) {
                caller.join();
            }
            assertEquals(List.of(), new ArrayList<>(problems));
            assertTrue(requests.get() > 0);
            assertEquals(RuleFiles.parse(oldRules, "old", RuleFiles.Format.JSON), service.rules());
        }
    }
}
