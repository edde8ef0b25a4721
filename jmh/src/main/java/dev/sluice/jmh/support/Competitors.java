package dev.sluice.jmh.support;

import dev.sluice.RateLimitConfig;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.local.SynchronizationStrategy;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;

/**
 * The competitors, each configured from a token-bucket {@link RateLimitConfig} (limit per window, capacity = limit)
 * with the library's defaults otherwise, as its documentation shows.
 */
final class Competitors {

    private Competitors() {
    }

    /** Bucket4j local bucket: capacity = limit, greedy refill of limit per window. */
    static Subject bucket4j(RateLimitConfig config, SynchronizationStrategy strategy) {
        Bandwidth bandwidth = Bandwidth.builder().capacity(config.limit())
                .refillGreedy(config.limit(), config.window()).build();
        return new KeyedMapSubject<Bucket>() {
            @Override
            Bucket newLimiter(String name) {
                return Bucket.builder().addLimit(bandwidth).withSynchronizationStrategy(strategy).build();
            }

            @Override
            boolean acquire(Bucket bucket) {
                return bucket.tryConsume(1);
            }
        };
    }

    /** Resilience4j {@link AtomicRateLimiter}: limit per refresh period of one window, timeout 0 (never waits). */
    static Subject resilience4j(RateLimitConfig config) {
        RateLimiterConfig r4j = RateLimiterConfig.custom()
                .limitForPeriod((int) Math.min(Integer.MAX_VALUE, config.limit()))
                .limitRefreshPeriod(config.window())
                .timeoutDuration(Duration.ZERO)
                .build();
        return new KeyedMapSubject<AtomicRateLimiter>() {
            @Override
            AtomicRateLimiter newLimiter(String name) {
                return new AtomicRateLimiter(name, r4j);
            }

            @Override
            boolean acquire(AtomicRateLimiter limiter) {
                return limiter.acquirePermission();
            }
        };
    }

    /** Guava {@code RateLimiter.create(permitsPerSecond)} (smooth bursty, at most one second stored). */
    @SuppressWarnings("UnstableApiUsage")
    static Subject guava(RateLimitConfig config) {
        double perSecond = config.limit() * 1e9 / config.windowNanos();
        return new KeyedMapSubject<com.google.common.util.concurrent.RateLimiter>() {
            @Override
            com.google.common.util.concurrent.RateLimiter newLimiter(String name) {
                return com.google.common.util.concurrent.RateLimiter.create(perSecond);
            }

            @Override
            boolean acquire(com.google.common.util.concurrent.RateLimiter limiter) {
                return limiter.tryAcquire();
            }
        };
    }
}
