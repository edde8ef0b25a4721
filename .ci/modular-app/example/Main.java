package example;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.table.MemoryFactory;
import java.time.Duration;

/** Builds a limiter from the module path and checks that it limits: 3 per minute admits 3 of 5. */
public final class Main {
    public static void main(String[] args) {
        RateLimitConfig config = RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 3, Duration.ofMinutes(1));
        try (RateLimiter limiter = RateLimiter.builder(config).build()) {
            int admitted = 0;
            for (int i = 0; i < 5; i++) {
                admitted += limiter.tryAcquire("alice") ? 1 : 0;
            }
            String backend = limiter.memoryBackend().map(Enum::name).orElse("none");
            if (admitted != 3) {
                throw new AssertionError("admitted " + admitted + " of 5, expected 3 (backend " + backend + ")");
            }
            System.out.println("module " + RateLimiter.class.getModule().getName() + ": 3 of 5 admitted on "
                    + backend + "; FFM by address: " + MemoryFactory.ffmByAddress());
        }
    }
}
