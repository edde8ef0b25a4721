package dev.sluice.scg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.ManualClock;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A real gateway (routes in application.yml, {@code RequestRateLimiter} with this limiter and key resolver) on a
 * random loopback port, in front of an upstream stub, driven by {@link HttpClient}. Time is the ManualClock bean.
 */
@SpringBootTest(classes = GatewayTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "server.address=127.0.0.1")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
class SluiceGatewayRateLimiterTest {

    private static final AtomicInteger UPSTREAM_HITS = new AtomicInteger();
    private static final HttpServer UPSTREAM = startUpstream();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @LocalServerPort
    private int port;

    @Autowired
    private ManualClock clock;

    private static HttpServer startUpstream() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            s.createContext("/", exchange -> {
                UPSTREAM_HITS.incrementAndGet();
                byte[] body = "upstream".getBytes(StandardCharsets.US_ASCII);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            s.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void upstream(DynamicPropertyRegistry registry) {
        registry.add("upstream.port", () -> UPSTREAM.getAddress().getPort());
    }

    @AfterAll
    static void stopUpstream() {
        UPSTREAM.stop(0);
    }

    @BeforeEach
    void resetHits() {
        UPSTREAM_HITS.set(0);
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void routeLimitAdmitsItsPermitsWithFieldsThenAnswers429WithRetryAfter() throws Exception {
        for (int remaining = 1; remaining >= 0; remaining--) {
            HttpResponse<String> r = get("/pay");
            assertEquals(200, r.statusCode());
            assertEquals("upstream", r.body());
            assertEquals(Optional.of("\"api\";q=2;w=60"), r.headers().firstValue("RateLimit-Policy"));
            assertEquals(Optional.of("\"api\";r=" + remaining + ";t=59"), r.headers().firstValue("RateLimit"));
            assertEquals(Optional.of(Integer.toString(remaining)), r.headers().firstValue("X-RateLimit-Remaining"));
            assertEquals(Optional.of("2"), r.headers().firstValue("X-RateLimit-Burst-Capacity"));
            assertEquals(Optional.of("1"), r.headers().firstValue("X-RateLimit-Requested-Tokens"));
        }
        HttpResponse<String> denied = get("/pay/");
        assertEquals(429, denied.statusCode());
        assertEquals(Optional.of("59"), denied.headers().firstValue("Retry-After"));
        assertEquals(Optional.of("\"api\";r=0;t=59"), denied.headers().firstValue("RateLimit"));
        assertEquals(Optional.of("0"), denied.headers().firstValue("X-RateLimit-Remaining"));
        assertEquals(2, UPSTREAM_HITS.get());

        clock.advanceMillis(60_000);
        assertEquals(200, get("/pay").statusCode());
    }

    @Test
    void eachRouteHasItsOwnRule() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.of("\"default\";q=3;w=10"), get("/home").headers().firstValue("RateLimit-Policy"));
        }
        assertEquals(429, get("/home").statusCode());
        assertEquals(200, get("/pay").statusCode());
    }

    @Test
    void madeUpUserHeadersAndForwardedForFromOneClientShareItsKey() throws Exception {
        int admitted = 0;
        for (int i = 0; i < 20; i++) {
            admitted += get("/home", "X-User", "user" + i, "X-Forwarded-For", "198.51.100." + i).statusCode() == 200
                    ? 1 : 0;
        }
        assertEquals(3, admitted);
        assertEquals(3, UPSTREAM_HITS.get());
    }
}
