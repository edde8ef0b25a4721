package dev.sluice.netty;

import dev.sluice.Decision;
import java.util.concurrent.CompletionStage;

/**
 * Decides one request of (user, api) without blocking the caller, for a limiter behind the network; for example
 * {@code (user, api) -> redisRateLimiter.decideAsync(user, api, 1)}.
 */
@FunctionalInterface
public interface AsyncDecider {

    /** The decision for one permit of (user, api), completed on any thread. */
    CompletionStage<Decision> decide(String user, String api);
}
