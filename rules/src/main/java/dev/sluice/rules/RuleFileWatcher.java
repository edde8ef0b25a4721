package dev.sluice.rules;

import dev.sluice.RateLimiterService;
import dev.sluice.RuleSet;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Reloads a rule file into a service when the file changes, on a thread the caller provides: start it with
 * {@code new Thread(watcher).start()} (or an executor), stop it with {@link #close()}. Nothing starts by itself.
 *
 * <p>Polling, not {@code WatchService}: every {@code interval} it compares the file's modification time, size
 * and file key (the inode, on Linux) with the last ones it saw, and on any difference calls
 * {@link RuleFiles#reload(Path, RateLimiterService, RuleFileReader)}. A replacement by rename (the safe way to
 * rewrite a file: write a temporary file, then move it over) always changes the file key. An in-place rewrite of
 * the same size within the file system's time resolution could go unseen; write by rename. A file found invalid
 * is reported once to the listener, leaves the service on its current rules, and is read again only when it
 * changes again. The file as it is when the watcher is made counts as seen (the caller has loaded it).
 */
public final class RuleFileWatcher implements Runnable, Closeable {

    /** Hears about each change of the file; called on the watcher's thread. */
    public interface Listener {
        /** The changed file was valid and is now in force. */
        void reloaded(RuleSet rules);

        /** The changed file was not installed, for this reason; the previous rules still serve. */
        void rejected(RuleFileException why);
    }

    private final Path file;
    private final RateLimiterService service;
    private final RuleFileReader reader;
    private final long intervalNanos;
    private final Listener listener;
    /** Used only by the thread that calls {@link #check()}. */
    private Object[] seen;
    /** Volatile: a close on any thread stops the loop at its next turn. */
    private volatile boolean closed;
    /** Volatile: close unparks the thread running the loop, so it stops without waiting out its interval. */
    private volatile Thread runner;

    /** Watches a Sluice rule file ({@link RuleFiles#load}). */
    public RuleFileWatcher(Path file, RateLimiterService service, Duration interval, Listener listener) {
        this(file, service, RuleFiles::load, interval, listener);
    }

    /** Watches a rule file read by {@code reader} (for example an Envoy file with its fallback default). */
    public RuleFileWatcher(Path file, RateLimiterService service, RuleFileReader reader, Duration interval,
            Listener listener) {
        this.file = Objects.requireNonNull(file, "file must not be null");
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.reader = Objects.requireNonNull(reader, "reader must not be null");
        this.listener = Objects.requireNonNull(listener, "listener must not be null");
        Objects.requireNonNull(interval, "interval must not be null");
        if (interval.compareTo(Duration.ofMillis(1)) < 0 || interval.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("interval must be from 1ms to 1d, was " + Durations.format(interval));
        }
        this.intervalNanos = interval.toNanos();
        this.seen = version();
    }

    /**
     * Looks at the file once, on the calling thread: if it changed since the last look, reloads it and tells the
     * listener.
     *
     * @return whether the file had changed
     */
    public boolean check() {
        Object[] now = version();
        if (Arrays.equals(now, seen)) {
            return false;
        }
        seen = now;
        try {
            listener.reloaded(RuleFiles.reload(file, service, reader));
        } catch (RuleFileException e) {
            listener.rejected(e);
        }
        return true;
    }

    /** Checks the file every interval until {@link #close()}. */
    @Override
    public void run() {
        runner = Thread.currentThread();
        while (!closed) {
            check();
            LockSupport.parkNanos(this, intervalNanos);
        }
    }

    /** Stops {@link #run()} at its next turn (at once if it is waiting). Idempotent. */
    @Override
    public void close() {
        closed = true;
        Thread t = runner;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** What tells one version of the file from another; a missing file is a version too. */
    private Object[] version() {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Object[] {a.lastModifiedTime(), a.size(), a.fileKey()};
        } catch (IOException missing) {
            return new Object[] {missing.getClass().getName()};
        }
    }
}
