package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.Rule;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * End to end: a real JDK HTTP server on loopback with {@link SluiceHttpFilter} in front of its handler, driven by
 * {@link HttpClient}; time is a ManualClock that the test moves between requests.
 */
class SluiceHttpFilterTest {

    private final ManualClock clock = new ManualClock();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private RateLimiterService service;
    private HttpServer server;
    private final AtomicInteger handled = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        clock.setMillis(1_000);
        service = RateLimiterService.builder().clock(clock)
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10))).build();
        service.configureApi("/search", RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 2, Duration.ofSeconds(1)));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        HttpContext context = server.createContext("/", exchange -> {
            handled.incrementAndGet();
            byte[] body = ("ok " + exchange.getRequestURI().getPath()).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        context.getFilters().add(new SluiceHttpFilter(service));
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        service.close();
    }

    private HttpResponse<String> get(String user, String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET();
        if (user != null) {
            b.header("X-User", user);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertAdmitted(HttpResponse<String> r, String policy, String rateLimit) {
        assertEquals(200, r.statusCode());
        assertEquals("ok " + r.uri().getPath(), r.body());
        assertEquals(Optional.of(policy), r.headers().firstValue("RateLimit-Policy"));
        assertEquals(Optional.of(rateLimit), r.headers().firstValue("RateLimit"));
        assertEquals(Optional.empty(), r.headers().firstValue("Retry-After"));
    }

    private static void assertDenied(HttpResponse<String> r, String policy, String rateLimit, String retryAfter) {
        assertEquals(429, r.statusCode());
        assertEquals("", r.body());
        assertEquals(Optional.of(policy), r.headers().firstValue("RateLimit-Policy"));
        assertEquals(Optional.of(rateLimit), r.headers().firstValue("RateLimit"));
        assertEquals(Optional.of(retryAfter), r.headers().firstValue("Retry-After"));
    }

    @Test
    void admitsTheLimitThenAnswers429UntilTheWindowEnds() throws Exception {
        String policy = "\"default\";q=3;w=10";
        assertAdmitted(get("alice", "/home"), policy, "\"default\";r=2;t=9");
        assertAdmitted(get("alice", "/home"), policy, "\"default\";r=1;t=9");
        assertAdmitted(get("alice", "/home"), policy, "\"default\";r=0;t=9");
        assertDenied(get("alice", "/home"), policy, "\"default\";r=0;t=9", "9");
        clock.setMillis(9_500);
        assertDenied(get("alice", "/home"), policy, "\"default\";r=0;t=1", "1");
        assertEquals(3, handled.get());

        clock.setMillis(10_000);
        assertAdmitted(get("alice", "/home"), policy, "\"default\";r=2;t=10");
        assertEquals(4, handled.get());
    }

    @Test
    void madeUpUserHeadersFromOneClientShareItsKey() throws Exception {
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            admitted += get("user" + i, "/home").statusCode() == 200 ? 1 : 0;
        }
        assertEquals(3, admitted);
        assertAdmitted(get("alice", "/other"), "\"default\";q=3;w=10", "\"default\";r=2;t=9");
    }

    @Test
    void everySpellingOfAPathSharesItsKey() throws Exception {
        String[] spellings = {"/home/", "/home//", "/h%6Fme", "/x/../home", "/home"};
        String[] remaining = {"2", "1", "0", "0", "0"};
        for (int i = 0; i < spellings.length; i++) {
            HttpResponse<String> r = get(null, spellings[i]);
            assertEquals(Optional.of("\"default\";r=" + remaining[i] + ";t=9"), r.headers().firstValue("RateLimit"),
                    spellings[i]);
            assertEquals(i < 3, r.statusCode() != 429, spellings[i]);
        }
    }

    @Test
    @SuppressWarnings("deprecation")
    void theHeaderConstructorStillKeysByTheHeader() throws Exception {
        server.stop(0);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        }).getFilters().add(new SluiceHttpFilter(service, "X-User"));
        server.start();
        for (int i = 0; i < 3; i++) {
            assertEquals(204, get("alice", "/home").statusCode());
        }
        assertEquals(429, get("alice", "/home").statusCode());
        assertEquals(204, get("bob", "/home").statusCode());
    }

    @Test
    void apiRuleIsAdvertisedUnderItsOwnPolicyAndRefillsWithTheClock() throws Exception {
        String policy = "\"api\";q=2;w=1";
        assertAdmitted(get("alice", "/search"), policy, "\"api\";r=1;t=1");
        assertAdmitted(get("alice", "/search"), policy, "\"api\";r=0;t=1");
        assertDenied(get("alice", "/search"), policy, "\"api\";r=0;t=1", "1");
        clock.advanceMillis(499);
        assertDenied(get("alice", "/search"), policy, "\"api\";r=0;t=1", "1");
        clock.advanceMillis(1);
        assertAdmitted(get("alice", "/search"), policy, "\"api\";r=0;t=1");
    }

    @Test
    void requestWithoutUserHeaderIsKeyedByClientAddress() throws Exception {
        assertAdmitted(get(null, "/home"), "\"default\";q=3;w=10", "\"default\";r=2;t=9");
        assertAdmitted(get(null, "/home"), "\"default\";q=3;w=10", "\"default\";r=1;t=9");
        assertAdmitted(get("127.0.0.1", "/home"), "\"default\";q=3;w=10", "\"default\";r=0;t=9");
    }

    @Test
    void headersFollowALiveReconfiguration() throws Exception {
        assertAdmitted(get("alice", "/home"), "\"default\";q=3;w=10", "\"default\";r=2;t=9");
        service.configureApi("/home", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofMinutes(1)));
        assertAdmitted(get("alice", "/home"), "\"api\";q=1;w=60", "\"api\";r=0;t=59");
        assertDenied(get("alice", "/home"), "\"api\";q=1;w=60", "\"api\";r=0;t=59", "59");
    }

    @Test
    void onlyShadowRulesMeansNoLimitAndNoHeaders() throws Exception {
        service.configureDefault(Rule.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 1, Duration.ofSeconds(10)))
                .asShadow());
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = get("alice", "/home");
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("RateLimit").isEmpty());
            assertTrue(r.headers().firstValue("RateLimit-Policy").isEmpty());
        }
        assertEquals(2, service.metrics().get(0).wouldDeny());
    }
}
