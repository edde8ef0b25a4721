package dev.sluice.jmh.support;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A library that has no keyed store, used as its users use it: one limiter object per key in a
 * {@link ConcurrentHashMap}, created on first use by {@code computeIfAbsent}. A {@code long} key is boxed on every
 * call, as it is in such user code.
 */
abstract class KeyedMapSubject<L> implements Subject {

    private final ConcurrentHashMap<Long, L> byLong = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, L> byString = new ConcurrentHashMap<>();
    private final Function<Long, L> newForLong = key -> newLimiter(key.toString());
    private final Function<String, L> newForString = this::newLimiter;

    /** A fresh limiter for one key; {@code name} is the key's text (Resilience4j wants a name). */
    abstract L newLimiter(String name);

    abstract boolean acquire(L limiter);

    @Override
    public final boolean tryAcquire(long key, Caller caller) {
        return acquire(byLong.computeIfAbsent(key, newForLong));
    }

    @Override
    public final boolean tryAcquire(String key, Caller caller) {
        return acquire(byString.computeIfAbsent(key, newForString));
    }
}
