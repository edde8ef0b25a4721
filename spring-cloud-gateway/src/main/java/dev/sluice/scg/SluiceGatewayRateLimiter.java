package dev.sluice.scg;

import dev.sluice.Decision;
import dev.sluice.RateLimiterService;
import dev.sluice.http.DecisionHeaders;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * A Spring Cloud Gateway {@link RateLimiter} deciding with a {@link RateLimiterService}: the key the route's
 * {@code KeyResolver} chose is the user, the route id the api, so the service's rules apply per route
 * ({@code configureApi(routeId, ...)}), per key, per (key, route) or by default, with their precedence.
 *
 * <p>Response fields, on admitted and denied requests alike: the IETF {@code RateLimit-Policy}, {@code RateLimit}
 * and, when denied, {@code Retry-After}; and the fields Spring Cloud Gateway's own limiters write:
 * {@code X-RateLimit-Remaining}, {@code X-RateLimit-Burst-Capacity} (the decision's limit) and
 * {@code X-RateLimit-Requested-Tokens}. A request no enforcing rule covers is admitted with no field.
 *
 * <p>Threads: with the local engine the decision is lock-free and never blocks, so it runs on the calling (event
 * loop) thread. A service whose limiters call a remote store synchronously must be given a {@link Scheduler} for
 * blocking work ({@code Schedulers.boundedElastic()}), so that the event loop never waits on it.
 */
public final class SluiceGatewayRateLimiter implements RateLimiter<SluiceGatewayRateLimiter.Config> {

    public static final String REMAINING_HEADER = "X-RateLimit-Remaining";
    public static final String BURST_CAPACITY_HEADER = "X-RateLimit-Burst-Capacity";
    public static final String REQUESTED_TOKENS_HEADER = "X-RateLimit-Requested-Tokens";

    private final RateLimiterService service;
    private final DecisionHeaders headers;
    private final Scheduler blocking;
    private final Map<String, Config> config = new LinkedHashMap<>();

    /** Decides on the calling thread: for a service of local limiters. */
    public SluiceGatewayRateLimiter(RateLimiterService service) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.headers = new DecisionHeaders(service);
        this.blocking = null;
    }

    /** Decides on {@code blocking}: for a service whose limiters may block (a remote backend). */
    public SluiceGatewayRateLimiter(RateLimiterService service, Scheduler blocking) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.headers = new DecisionHeaders(service);
        this.blocking = Objects.requireNonNull(blocking, "blocking scheduler must not be null");
    }

    @Override
    public Mono<Response> isAllowed(String routeId, String id) {
        Mono<Response> decision = Mono.fromSupplier(() -> decide(routeId, id));
        return blocking == null ? decision : decision.subscribeOn(blocking);
    }

    private Response decide(String routeId, String id) {
        Decision d = new Decision();
        boolean allowed = service.allow(id, routeId, 1, d);
        Map<String, String> fields = new LinkedHashMap<>();
        headers.write(id, routeId, d, fields::put);
        if (!fields.isEmpty()) {
            fields.put(REMAINING_HEADER, Long.toString(d.remaining()));
            fields.put(BURST_CAPACITY_HEADER, Long.toString(d.limit()));
            fields.put(REQUESTED_TOKENS_HEADER, "1");
        }
        return new Response(allowed, Collections.unmodifiableMap(fields));
    }

    @Override
    public Map<String, Config> getConfig() {
        return config;
    }

    @Override
    public Class<Config> getConfigClass() {
        return Config.class;
    }

    @Override
    public Config newConfig() {
        return new Config();
    }

    /** Per-route arguments: none, since the limits are the service's rules, keyed by route id. */
    public static final class Config {
    }
}
