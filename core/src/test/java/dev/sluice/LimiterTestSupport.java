package dev.sluice;

import java.time.Duration;

/** Small helpers shared by the limiter tests: a limiter on a ManualClock and decision strings. */
final class LimiterTestSupport {

    static final long MS = 1_000_000L;

    private LimiterTestSupport() {
    }

    static RateLimiter limiter(Algorithm algorithm, long limit, long windowMillis, ManualClock clock) {
        return RateLimiter.builder(RateLimitConfig.of(algorithm, limit, Duration.ofMillis(windowMillis)))
                .clock(clock).maxKeys(1024).build();
    }

    /** How many of {@code times} unit requests at {@code now} are admitted. */
    static int takeAt(RateLimiter limiter, long key, int times, long now) {
        int admitted = 0;
        for (int i = 0; i < times; i++) {
            admitted += limiter.tryAcquire(key, 1, now) ? 1 : 0;
        }
        return admitted;
    }

    /** 'Y' or 'N' for each of {@code times} unit requests on {@code key}. */
    static String take(RateLimiter limiter, long key, int times) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < times; i++) {
            sb.append(limiter.tryAcquire(key) ? 'Y' : 'N');
        }
        return sb.toString();
    }
}
