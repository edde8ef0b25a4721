package dev.sluice.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.ClientAddressResolver.ForwardedHeader;
import dev.sluice.http.KeyResolver;
import dev.sluice.http.Routes;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The filter in a real container on loopback, driven by {@link HttpClient}: the same expectations for every
 * container. Time is a ManualClock; the default rule is 3 per 10 s, the {@code pay} route 2 per minute.
 */
abstract class SluiceFilterContract {

    private static final String DEFAULT_POLICY = "\"default\";q=3;w=10";
    private static final String PAY_POLICY = "\"api\";q=2;w=60";

    private final ManualClock clock = new ManualClock();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicInteger handled = new AtomicInteger();
    private final Routes routes = Routes.builder().route("pay", "/pay").build();
    private RateLimiterService service;
    private EmbeddedServer server;
    private int port;

    abstract EmbeddedServer newServer();

    @BeforeEach
    void createService() {
        clock.setMillis(1_000);
        service = RateLimiterService.builder().clock(clock)
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10))).build();
        service.configureApi("pay", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofMinutes(1)));
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        service.close();
    }

    private void start(Filter... filters) throws Exception {
        server = newServer();
        port = server.start(new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                handled.incrementAndGet();
                resp.setContentType("text/plain");
                resp.getWriter().write("ok");
            }
        }, filters);
    }

    private void startDefault() throws Exception {
        start(new SluiceFilter(service, KeyResolver.principal(KeyResolver.clientAddress(ClientAddressResolver.peer())),
                routes));
    }

    private HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Optional<String> field(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name);
    }

    @Test
    void admitsTheLimitWithItsFieldsThenAnswers429WithRetryAfter() throws Exception {
        startDefault();
        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> r = get("/home");
            assertEquals(200, r.statusCode());
            assertEquals("ok", r.body());
            assertEquals(Optional.of(DEFAULT_POLICY), field(r, "RateLimit-Policy"));
            assertEquals(Optional.of("\"default\";r=" + remaining + ";t=9"), field(r, "RateLimit"));
            assertEquals(Optional.empty(), field(r, "Retry-After"));
        }
        HttpResponse<String> denied = get("/home");
        assertEquals(429, denied.statusCode());
        assertEquals("", denied.body());
        assertEquals(Optional.of(DEFAULT_POLICY), field(denied, "RateLimit-Policy"));
        assertEquals(Optional.of("\"default\";r=0;t=9"), field(denied, "RateLimit"));
        assertEquals(Optional.of("9"), field(denied, "Retry-After"));
        assertEquals(3, handled.get());

        clock.setMillis(10_000);
        assertEquals(200, get("/home").statusCode());
        assertEquals(4, handled.get());
    }

    @Test
    void noSpellingOfARoutePathEscapesItsLimit() throws Exception {
        startDefault();
        String[] spellings = {"/pay", "/pay/", "/pay/../pay", "//pay", "/p%61y", "/./pay", "/pay//", "/x/../pay",
            "/%70ay?x=1", "/pay;jsessionid=1", "/pay;x=1/"};
        int admitted = 0;
        for (String p : spellings) {
            HttpResponse<String> r = get(p);
            if (r.statusCode() == 200) {
                admitted++;
                assertEquals(Optional.of(PAY_POLICY), field(r, "RateLimit-Policy"), p);
            }
        }
        assertEquals(2, admitted);
        assertEquals(2, handled.get());
    }

    @Test
    void upperCasePathIsAnotherPath() throws Exception {
        startDefault();
        assertEquals(Optional.of(DEFAULT_POLICY), field(get("/PAY"), "RateLimit-Policy"));
    }

    @Test
    void fiftyMadeUpUserHeadersFromOneClientShareItsKey() throws Exception {
        startDefault();
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            admitted += get("/home", "X-User", "user" + i).statusCode() == 200 ? 1 : 0;
        }
        assertEquals(3, admitted);
    }

    @Test
    void spoofedForwardedForFromAnUntrustedPeerIsIgnored() throws Exception {
        ClientAddressResolver addresses = ClientAddressResolver.builder().trustedProxies("10.0.0.0/8")
                .forwardedHeader(ForwardedHeader.X_FORWARDED_FOR).build();
        start(new SluiceFilter(service, KeyResolver.clientAddress(addresses), routes));
        int admitted = 0;
        for (int i = 0; i < 20; i++) {
            admitted += get("/home", "X-Forwarded-For", "198.51.100." + i).statusCode() == 200 ? 1 : 0;
        }
        assertEquals(3, admitted);
    }

    @Test
    void forwardedForFromATrustedProxyNamesTheClient() throws Exception {
        ClientAddressResolver addresses = ClientAddressResolver.builder().trustedProxies("127.0.0.0/8")
                .forwardedHeader(ForwardedHeader.X_FORWARDED_FOR).build();
        start(new SluiceFilter(service, KeyResolver.clientAddress(addresses), routes));
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get("/home", "X-Forwarded-For", "6.6.6.6, 198.51.100.1").statusCode());
        }
        assertEquals(429, get("/home", "X-Forwarded-For", "7.7.7.7, 198.51.100.1").statusCode());
        assertEquals(200, get("/home", "X-Forwarded-For", "198.51.100.2").statusCode());
    }

    @Test
    void eachAuthenticatedPrincipalHasItsOwnKey() throws Exception {
        // Stands in for the container's authentication: the principal is what the server established.
        Filter authenticate = (req, resp, chain) -> {
            HttpServletRequest http = (HttpServletRequest) req;
            String user = http.getHeader("Authorization");
            chain.doFilter(user == null ? req : new HttpServletRequestWrapper(http) {
                @Override
                public Principal getUserPrincipal() {
                    return () -> user.substring("Bearer ".length());
                }
            }, resp);
        };
        start(authenticate, new SluiceFilter(service));
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get("/home", "Authorization", "Bearer alice").statusCode());
        }
        assertEquals(429, get("/home", "Authorization", "Bearer alice").statusCode());
        assertEquals(200, get("/home", "Authorization", "Bearer bob").statusCode());
        assertEquals(200, get("/home").statusCode());
    }
}
