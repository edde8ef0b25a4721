package dev.sluice.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.Algorithm;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.ClientAddressResolver.ForwardedHeader;
import dev.sluice.http.Routes;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
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
 * A real Netty HTTP server on loopback (codec, Sluice, aggregator, application) driven by {@link HttpClient}. Time
 * is a ManualClock; the default rule is 3 per 10 s, the {@code pay} route 2 per minute.
 */
class SluiceHttpHandlerTest {

    private final ManualClock clock = new ManualClock();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicInteger handled = new AtomicInteger();
    private final Routes routes = Routes.builder().route("pay", "/pay").otherwise("other").build();
    private RateLimiterService service;
    private EventLoopGroup group;
    private Channel server;
    private int port;

    @BeforeEach
    void createService() {
        clock.setMillis(1_000);
        service = RateLimiterService.builder().clock(clock)
                .defaultConfig(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10))).build();
        service.configureApi("pay", RateLimitConfig.of(Algorithm.FIXED_WINDOW, 2, Duration.ofMinutes(1)));
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.close().sync();
        }
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).sync();
        service.close();
    }

    private void start(ClientAddressResolver clients) throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new SluiceHttpHandler(service, clients, routes),
                                new HttpObjectAggregator(1 << 16), new App());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        port = ((InetSocketAddress) server.localAddress()).getPort();
    }

    private final class App extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            handled.incrementAndGet();
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("ok", StandardCharsets.US_ASCII));
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 2);
            HttpUtil.setKeepAlive(response, HttpUtil.isKeepAlive(request));
            ctx.writeAndFlush(response);
        }
    }

    private HttpResponse<String> send(String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        return send("GET", path, null, headers);
    }

    @Test
    void admitsTheLimitWithItsFieldsThenAnswers429WithRetryAfter() throws Exception {
        start(ClientAddressResolver.peer());
        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> r = get("/home");
            assertEquals(200, r.statusCode());
            assertEquals("ok", r.body());
            assertEquals(Optional.of("\"default\";q=3;w=10"), r.headers().firstValue("RateLimit-Policy"));
            assertEquals(Optional.of("\"default\";r=" + remaining + ";t=9"), r.headers().firstValue("RateLimit"));
            assertEquals(Optional.empty(), r.headers().firstValue("Retry-After"));
        }
        HttpResponse<String> denied = get("/home");
        assertEquals(429, denied.statusCode());
        assertEquals("", denied.body());
        assertEquals(Optional.of("\"default\";r=0;t=9"), denied.headers().firstValue("RateLimit"));
        assertEquals(Optional.of("9"), denied.headers().firstValue("Retry-After"));
        assertEquals(3, handled.get());
        clock.setMillis(10_000);
        assertEquals(200, get("/home").statusCode());
    }

    @Test
    void noSpellingOfARoutePathEscapesItsLimit() throws Exception {
        start(ClientAddressResolver.peer());
        int admitted = 0;
        for (String p : new String[] {"/pay", "/pay/", "/pay/../pay", "//pay", "/p%61y", "/./pay", "/pay?x=1", "/pay;x=1"}) {
            HttpResponse<String> r = get(p);
            assertEquals(Optional.of("\"api\";q=2;w=60"), r.headers().firstValue("RateLimit-Policy"), p);
            admitted += r.statusCode() == 200 ? 1 : 0;
        }
        assertEquals(2, admitted);
        assertEquals(2, handled.get());
    }

    @Test
    void aDeniedBodyIsDroppedAndTheConnectionServesTheNextRequest() throws Exception {
        start(ClientAddressResolver.peer());
        for (int i = 0; i < 3; i++) {
            assertEquals(200, send("POST", "/upload", "x".repeat(10_000)).statusCode());
        }
        assertEquals(429, send("POST", "/upload", "y".repeat(10_000)).statusCode());
        assertEquals(429, get("/upload").statusCode());
        assertEquals(3, handled.get());
        clock.setMillis(10_000);
        assertEquals(200, send("POST", "/upload", "z").statusCode());
    }

    @Test
    void spoofedForwardedForFromAnUntrustedPeerIsIgnored() throws Exception {
        start(ClientAddressResolver.builder().trustedProxies("10.0.0.0/8")
                .forwardedHeader(ForwardedHeader.X_FORWARDED_FOR).build());
        int admitted = 0;
        for (int i = 0; i < 20; i++) {
            admitted += get("/home", "X-Forwarded-For", "198.51.100." + i).statusCode() == 200 ? 1 : 0;
        }
        assertEquals(3, admitted);
    }

    @Test
    void forwardedForFromATrustedProxyNamesTheClient() throws Exception {
        start(ClientAddressResolver.builder().trustedProxies("127.0.0.1")
                .forwardedHeader(ForwardedHeader.X_FORWARDED_FOR).build());
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get("/home", "X-Forwarded-For", "198.51.100.1").statusCode());
        }
        assertEquals(429, get("/home", "X-Forwarded-For", "6.6.6.6, 198.51.100.1").statusCode());
        assertEquals(200, get("/home", "X-Forwarded-For", "198.51.100.2").statusCode());
    }

    @Test
    void madeUpUserHeadersFromOneClientShareItsKey() throws Exception {
        start(ClientAddressResolver.peer());
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            admitted += get("/home", "X-User", "user" + i).statusCode() == 200 ? 1 : 0;
        }
        assertEquals(3, admitted);
    }
}
