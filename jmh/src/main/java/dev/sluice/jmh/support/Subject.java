package dev.sluice.jmh.support;

/**
 * One rate limiter under test, keyed by {@code long} or {@code String}, used the way its own users use it. Each JMH
 * fork creates one kind only, so every call site that goes through this interface stays monomorphic.
 */
public interface Subject extends AutoCloseable {

    boolean tryAcquire(long key, Caller caller);

    boolean tryAcquire(String key, Caller caller);

    /** What the store says of itself after a fill (keys held, table-full events), or empty. */
    default String describe() {
        return "";
    }

    @Override
    default void close() {
    }
}
