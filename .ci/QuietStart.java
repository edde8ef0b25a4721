import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.RateLimiterService;
import dev.sluice.table.MemoryFactory;
import java.time.Duration;

/**
 * Builds a limiter of every algorithm with the default backend, decides requests, prints the backend on stdout and
 * whether FFM reaches memory by address (it does where the JVM grants native access).
 */
public class QuietStart {
    public static void main(String[] args) {
        for (Algorithm algorithm : Algorithm.values()) {
            try (RateLimiter limiter = RateLimiter.builder(RateLimitConfig.of(algorithm, 3, Duration.ofSeconds(1)))
                    .maxKeys(1024).build()) {
                int admitted = 0;
                for (int i = 0; i < 5; i++) {
                    admitted += (limiter.tryAcquire(42L, 1) ? 1 : 0) + (limiter.tryAcquire("user-42", 1) ? 1 : 0);
                }
                if (admitted != 6) {
                    throw new AssertionError(algorithm + " admitted " + admitted + " of 10, expected 6");
                }
                System.out.println(algorithm + " on " + limiter.memoryBackend().orElseThrow());
            }
        }
        try (RateLimiterService service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1))).build()) {
            if (!service.allow("alice", "/search") || !service.allow("alice", "/search")
                    || service.allow("alice", "/search")) {
                throw new AssertionError("the service must admit 2 of 3");
            }
        }
        System.out.println("FFM by address: " + MemoryFactory.ffmByAddress());
    }
}
