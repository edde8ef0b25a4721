package dev.sluice.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.sluice.Decision;
import dev.sluice.RateLimiterService;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Sluice in front of a JDK {@code com.sun.net.httpserver} handler: each request is one permit of the
 * {@link RateLimiterService}, the user chosen by a {@link KeyResolver} and the api by {@link Routes}. An admitted
 * request goes on down the chain; a denied one is answered {@code 429} with an empty body. Both carry the fields
 * of {@link RateLimitHeaders} for the rule that decided (see {@link DecisionHeaders}).
 *
 * <p>By default the user is the authenticated principal (from the context's {@code Authenticator}), else the
 * client address (/32, /64, no proxy trusted), and the api is the normalized path.
 *
 * <p>Thread-safe: one filter serves every request thread; each thread reuses its own {@link Decision}.
 */
public final class SluiceHttpFilter extends Filter {

    /** The request header the deprecated constructor reads the user from. */
    public static final String USER_HEADER = "X-User";

    private final RateLimiterService service;
    private final KeyResolver users;
    private final Routes routes;
    private final DecisionHeaders headers;
    private final ThreadLocal<Decision> decisions = ThreadLocal.withInitial(Decision::new);

    /** Keyed by principal, else client address, and by normalized path. */
    public SluiceHttpFilter(RateLimiterService service) {
        this(service, KeyResolver.principal(KeyResolver.clientAddress(ClientAddressResolver.peer())),
                Routes.normalizedPaths());
    }

    /**
     * Keyed by the header {@code userHeader}, believed from every peer, else by client address.
     *
     * @deprecated any client can send the header and so choose its own key; use
     *             {@link KeyResolver#trustedHeader} with the proxies that set it
     */
    @Deprecated
    public SluiceHttpFilter(RateLimiterService service, String userHeader) {
        this(service, KeyResolver.trustedHeader(Objects.requireNonNull(userHeader, "userHeader must not be null"),
                ClientAddressResolver.builder().trustedProxies("0.0.0.0/0", "::/0").build(),
                KeyResolver.clientAddress(ClientAddressResolver.peer())), Routes.normalizedPaths());
    }

    public SluiceHttpFilter(RateLimiterService service, KeyResolver users, Routes routes) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.users = Objects.requireNonNull(users, "users must not be null");
        this.routes = Objects.requireNonNull(routes, "routes must not be null");
        this.headers = new DecisionHeaders(service);
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        HttpRequestView view = new ExchangeView(exchange);
        String user = users.resolve(view);
        String api = routes.resolve(view);
        Decision decision = decisions.get();
        boolean allowed = service.allow(user, api, 1, decision);
        headers.write(user, api, decision, exchange.getResponseHeaders()::add);
        if (allowed) {
            chain.doFilter(exchange);
        } else {
            exchange.sendResponseHeaders(RateLimitHeaders.TOO_MANY_REQUESTS, -1);
            exchange.close();
        }
    }

    @Override
    public String description() {
        return "Sluice rate limit by client key and route";
    }

    private static final class ExchangeView implements HttpRequestView {
        private final HttpExchange exchange;

        ExchangeView(HttpExchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public String rawPath() {
            return exchange.getRequestURI().getRawPath();
        }

        @Override
        public String peerAddress() {
            return exchange.getRemoteAddress().getAddress().getHostAddress();
        }

        @Override
        public String principal() {
            HttpPrincipal p = exchange.getPrincipal();
            return p == null ? null : p.getUsername();
        }

        @Override
        public List<String> headers(String name) {
            List<String> values = exchange.getRequestHeaders().get(name);
            return values == null ? List.of() : values;
        }
    }
}
