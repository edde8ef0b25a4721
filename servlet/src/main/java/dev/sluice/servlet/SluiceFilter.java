package dev.sluice.servlet;

import dev.sluice.Decision;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.DecisionHeaders;
import dev.sluice.http.HttpRequestView;
import dev.sluice.http.KeyResolver;
import dev.sluice.http.RateLimitHeaders;
import dev.sluice.http.Routes;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;

/**
 * A Jakarta Servlet filter that decides each HTTP request with a {@link RateLimiterService} before the rest of the
 * chain: the user is chosen by a {@link KeyResolver}, the api by {@link Routes}. An admitted request goes on with
 * the {@code RateLimit-Policy} and {@code RateLimit} fields already on its response; a denied one is answered
 * {@code 429 Too Many Requests} with those fields, {@code Retry-After} and an empty body, and the chain is not
 * called.
 *
 * <p>By default the user is the container's authenticated principal ({@link HttpServletRequest#getUserPrincipal()},
 * so map this filter after the authentication filter), else the client address (/32, /64, no proxy trusted), and
 * the api is the normalized request path (context path included). Requests that are not HTTP pass untouched.
 *
 * <p>Thread-safe: one instance serves every request thread; each thread reuses its own {@link Decision}.
 */
public final class SluiceFilter implements Filter {

    private final RateLimiterService service;
    private final KeyResolver users;
    private final Routes routes;
    private final DecisionHeaders headers;
    private final ThreadLocal<Decision> decisions = ThreadLocal.withInitial(Decision::new);

    /** Keyed by principal, else client address, and by normalized path. */
    public SluiceFilter(RateLimiterService service) {
        this(service, KeyResolver.principal(KeyResolver.clientAddress(ClientAddressResolver.peer())),
                Routes.normalizedPaths());
    }

    public SluiceFilter(RateLimiterService service, KeyResolver users, Routes routes) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.users = Objects.requireNonNull(users, "users must not be null");
        this.routes = Objects.requireNonNull(routes, "routes must not be null");
        this.headers = new DecisionHeaders(service);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest) || !(response instanceof HttpServletResponse)) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletRequest http = (HttpServletRequest) request;
        HttpServletResponse out = (HttpServletResponse) response;
        HttpRequestView view = new ServletRequestView(http);
        String user = users.resolve(view);
        String api = routes.resolve(view);
        Decision decision = decisions.get();
        boolean allowed = service.allow(user, api, 1, decision);
        headers.write(user, api, decision, out::addHeader);
        if (allowed) {
            chain.doFilter(request, response);
        } else {
            out.setStatus(RateLimitHeaders.TOO_MANY_REQUESTS);
            out.setContentLength(0);
        }
    }

    /** A servlet request as a key resolver reads it. */
    static final class ServletRequestView implements HttpRequestView {
        private final HttpServletRequest request;

        ServletRequestView(HttpServletRequest request) {
            this.request = request;
        }

        @Override
        public String rawPath() {
            return request.getRequestURI();
        }

        @Override
        public String peerAddress() {
            return request.getRemoteAddr();
        }

        @Override
        public String principal() {
            Principal p = request.getUserPrincipal();
            return p == null ? null : p.getName();
        }

        @Override
        public List<String> headers(String name) {
            Enumeration<String> values = request.getHeaders(name);
            return values == null ? List.of() : Collections.list(values);
        }
    }
}
