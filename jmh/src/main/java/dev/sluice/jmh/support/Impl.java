package dev.sluice.jmh.support;

import dev.sluice.Clock;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import io.github.bucket4j.local.SynchronizationStrategy;
import java.lang.reflect.InvocationTargetException;

/** The implementations a benchmark can put side by side. */
public enum Impl {
    /** Sluice's lock-free engine, reading its own clock. */
    SLUICE,
    /** Sluice with the time given by the caller ({@code tryAcquire(key, 1, nowNanos)}): no clock read per call. */
    SLUICE_CALLER_TIME,
    /** Sluice reading its clock and filling a caller-owned {@link dev.sluice.Decision}. */
    SLUICE_DECISION,
    /** {@code dev.sluice.reference.ReferenceRateLimiter}: the classic synchronized design. */
    REFERENCE,
    /** Bucket4j local bucket, its default lock-free strategy. */
    BUCKET4J_LOCK_FREE,
    /** Bucket4j local bucket with {@code SynchronizationStrategy.SYNCHRONIZED}. */
    BUCKET4J_SYNCHRONIZED,
    /** Resilience4j {@code AtomicRateLimiter}, timeout 0. */
    RESILIENCE4J,
    /** Guava {@code RateLimiter.tryAcquire()}. */
    GUAVA;

    /** Whether this is one of Sluice's own limiters (engine or reference), which take every algorithm. */
    public boolean takesEveryAlgorithm() {
        return ordinal() <= REFERENCE.ordinal();
    }

    /**
     * A fresh subject. Competitors implement only their own token bucket and take the config's limit and window;
     * Sluice gets room for {@code maxKeys} keys on {@code memory}.
     */
    public Subject create(RateLimitConfig config, int maxKeys, MemoryBackend memory) {
        switch (this) {
            case SLUICE:
                return new LimiterSubject(sluice(config, maxKeys, memory));
            case SLUICE_CALLER_TIME:
                return new CallerTimeSubject(sluice(config, maxKeys, memory));
            case SLUICE_DECISION:
                return new DecisionSubject(sluice(config, maxKeys, memory));
            case REFERENCE:
                return new LimiterSubject(reference(config, Clock.system()));
            case BUCKET4J_LOCK_FREE:
                return Competitors.bucket4j(config, SynchronizationStrategy.LOCK_FREE);
            case BUCKET4J_SYNCHRONIZED:
                return Competitors.bucket4j(config, SynchronizationStrategy.SYNCHRONIZED);
            case RESILIENCE4J:
                return Competitors.resilience4j(config);
            case GUAVA:
                return Competitors.guava(config);
            default:
                throw new AssertionError(this);
        }
    }

    private static RateLimiter sluice(RateLimitConfig config, int maxKeys, MemoryBackend memory) {
        return RateLimiter.builder(config).clock(Clock.system()).maxKeys(maxKeys).memory(memory).build();
    }

    /** The reference, found by name: it lives in core and may be absent from an older core build. */
    static RateLimiter reference(RateLimitConfig config, Clock clock) {
        try {
            return (RateLimiter) Class.forName("dev.sluice.reference.ReferenceRateLimiter")
                    .getConstructor(RateLimitConfig.class, Clock.class).newInstance(config, clock);
        } catch (ClassNotFoundException | NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new IllegalStateException("dev.sluice.reference.ReferenceRateLimiter(RateLimitConfig, Clock) "
                    + "is not in this core build", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
