package dev.sluice.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import dev.sluice.Decision;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import dev.sluice.RuleSet;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An example of Sluice in front of a JDK {@code com.sun.net.httpserver} handler: each request is one permit of
 * the {@link RateLimiterService}, with the user taken from a request header (by default {@value #USER_HEADER};
 * the client's IP address when it is absent) and the api from the request path. An admitted request goes on down
 * the chain; a denied one is answered {@code 429} with an empty body. Both carry the fields of
 * {@link RateLimitHeaders} for the rule that decided.
 *
 * <p>Policy names are the rule's scope kind: {@code default}, {@code user}, {@code api} or {@code user-api}, so
 * that no user name or path leaks into a header. The rule is found with the same precedence as the service:
 * (user, api), api, user, default, skipping shadow rules. It is read from {@link RateLimiterService#rules()} next
 * to the decision, not with it, so a request that races a reconfiguration may name the new rule's policy beside
 * the old rule's decision (the {@code r} and {@code t} values are always the decision's own).
 *
 * <p>Thread-safe: one filter serves every request thread; each thread reuses its own {@link Decision}.
 */
public final class SluiceHttpFilter extends Filter {

    /** The request header that names the user, unless another is given. */
    public static final String USER_HEADER = "X-User";

    private final RateLimiterService service;
    private final String userHeader;
    private final ThreadLocal<Decision> decisions = ThreadLocal.withInitial(Decision::new);
    /** Headers per rule, for the rule set they were built from; replaced whole when the rule set changes. */
    private volatile HeaderCache cache;

    /** A filter keyed by the {@value #USER_HEADER} header. */
    public SluiceHttpFilter(RateLimiterService service) {
        this(service, USER_HEADER);
    }

    public SluiceHttpFilter(RateLimiterService service, String userHeader) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.userHeader = Objects.requireNonNull(userHeader, "userHeader must not be null");
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        String user = exchange.getRequestHeaders().getFirst(userHeader);
        if (user == null) {
            user = exchange.getRemoteAddress().getAddress().getHostAddress();
        }
        String api = exchange.getRequestURI().getPath();
        Decision decision = decisions.get();
        boolean allowed = service.allow(user, api, 1, decision);
        RateLimitHeaders headers = headersFor(user, api);
        if (headers != null) {
            headers.write(decision, exchange.getResponseHeaders()::add);
        }
        if (allowed) {
            chain.doFilter(exchange);
        } else {
            exchange.sendResponseHeaders(RateLimitHeaders.TOO_MANY_REQUESTS, -1);
            exchange.close();
        }
    }

    @Override
    public String description() {
        return "Sluice rate limit by " + userHeader + " and path";
    }

    /** The headers of the enforcing rule for (user, api), or null when only shadow rules apply. */
    private RateLimitHeaders headersFor(String user, String api) {
        RuleSet rules = service.rules();
        // Volatile read: a cache built for this very rule set is valid; any other is replaced below.
        HeaderCache c = cache;
        if (c == null || c.rules != rules) {
            c = new HeaderCache(rules);
            // Volatile write: publishes an empty cache; a racing thread at worst builds its own and one wins.
            cache = c;
        }
        Rule r = rules.userApiRule(user, api);
        if (enforces(r)) {
            return c.headers(HeaderCache.USER_API, r);
        }
        r = rules.apiRule(api);
        if (enforces(r)) {
            return c.headers(HeaderCache.API, r);
        }
        r = rules.userRule(user);
        if (enforces(r)) {
            return c.headers(HeaderCache.USER, r);
        }
        r = rules.defaultRule();
        return enforces(r) ? c.headers(HeaderCache.DEFAULT, r) : null;
    }

    private static boolean enforces(Rule rule) {
        return rule != null && !rule.shadow();
    }

    /** One map per scope kind, so that equal rules at two kinds keep their own policy names. */
    private static final class HeaderCache {
        static final int USER_API = 0;
        static final int API = 1;
        static final int USER = 2;
        static final int DEFAULT = 3;
        private static final String[] KINDS = {"user-api", "api", "user", "default"};

        final RuleSet rules;
        private final List<Map<Rule, RateLimitHeaders>> byKind = List.of(new ConcurrentHashMap<>(),
                new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), new ConcurrentHashMap<>());

        HeaderCache(RuleSet rules) {
            this.rules = rules;
        }

        RateLimitHeaders headers(int kind, Rule rule) {
            return byKind.get(kind).computeIfAbsent(rule, r -> RateLimitHeaders.of(KINDS[kind], r));
        }
    }
}
