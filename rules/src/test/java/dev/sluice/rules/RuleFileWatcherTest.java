package dev.sluice.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.RuleSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher reloads a changed file on the caller's thread, reports a bad one, and stops when closed. */
class RuleFileWatcherTest {

    private static final String THREE = "default: {algorithm: fixed_window, limit: 3, window: 1s}\n";
    private static final String FIVE = "default: {algorithm: fixed_window, limit: 5, window: 1s}\n";
    private static final String BAD = "default: {algorithm: fixed_window, limit: -5, window: 1s}\n";

    @TempDir
    Path dir;

    /** What the listener heard, in order: a RuleSet or a RuleFileException. */
    private final BlockingQueue<Object> heard = new LinkedBlockingQueue<>();

    private final RuleFileWatcher.Listener listener = new RuleFileWatcher.Listener() {
        @Override
        public void reloaded(RuleSet rules) {
            heard.add(rules);
        }

        @Override
        public void rejected(RuleFileException why) {
            heard.add(why);
        }
    };

    private void replace(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(dir, "rules", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static RateLimiterService service() {
        return RateLimiterService.builder().maxKeysPerLimiter(1024)
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(1))).build();
    }

    @Test
    void checkReloadsOnlyWhenTheFileChanged() throws Exception {
        Path file = dir.resolve("rules.yaml");
        replace(file, THREE);
        try (RateLimiterService service = service()) {
            RuleFiles.reload(file, service);
            RuleFileWatcher watcher = new RuleFileWatcher(file, service, Duration.ofSeconds(1), listener);
            assertFalse(watcher.check());
            replace(file, FIVE);
            assertTrue(watcher.check());
            assertEquals(RuleFiles.load(file), service.rules());
            assertEquals(service.rules(), heard.poll());
            assertFalse(watcher.check());
            assertEquals(null, heard.poll());
        }
    }

    @Test
    void anInvalidChangeIsReportedOnceAndTheRulesStay() throws Exception {
        Path file = dir.resolve("rules.yaml");
        replace(file, THREE);
        try (RateLimiterService service = service()) {
            RuleSet three = RuleFiles.reload(file, service);
            RuleFileWatcher watcher = new RuleFileWatcher(file, service, Duration.ofSeconds(1), listener);
            replace(file, BAD);
            assertTrue(watcher.check());
            RuleFileException why = (RuleFileException) heard.poll();
            assertNotNull(why);
            assertEquals("default.limit", why.field());
            assertEquals(three, service.rules());
            assertFalse(watcher.check());
            Files.delete(file);
            assertTrue(watcher.check());
            assertTrue(((RuleFileException) heard.poll()).problem().startsWith("cannot be read"));
            assertEquals(three, service.rules());
        }
    }

    @Test
    void runningOnItsOwnThreadItPicksUpAChangeAndStopsWhenClosed() throws Exception {
        Path file = dir.resolve("rules.yaml");
        replace(file, THREE);
        try (RateLimiterService service = service()) {
            RuleFiles.reload(file, service);
            RuleFileWatcher watcher = new RuleFileWatcher(file, service, Duration.ofMillis(5), listener);
            Thread thread = new Thread(watcher, "rule-file-watcher");
            thread.start();
            replace(file, FIVE);
            Object first = heard.poll(30, TimeUnit.SECONDS);
            assertEquals(RuleFiles.load(file), first);
            assertEquals(first, service.rules());
            replace(file, BAD);
            assertTrue(heard.poll(30, TimeUnit.SECONDS) instanceof RuleFileException);
            watcher.close();
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(thread.isAlive());
        }
    }

    @Test
    void anIntervalOutOfRangeIsRejected() {
        try (RateLimiterService service = service()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new RuleFileWatcher(dir.resolve("r.yaml"), service, Duration.ZERO, listener));
            assertEquals("interval must be from 1ms to 1d, was 0ms", e.getMessage());
        }
    }
}
