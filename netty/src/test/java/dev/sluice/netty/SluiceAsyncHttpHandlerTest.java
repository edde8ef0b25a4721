package dev.sluice.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.ManualClock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.RateLimitHeaders;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous handler on a real Netty server, with a decider that answers from another thread (as a Redis
 * client does), over a local limiter of 3 per 10 s on a ManualClock.
 */
class SluiceAsyncHttpHandlerTest {

    private final ManualClock clock = new ManualClock();
    private final RateLimitConfig config = RateLimitConfig.of(Algorithm.FIXED_WINDOW, 3, Duration.ofSeconds(10));
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicInteger handled = new AtomicInteger();
    private final AtomicReference<Thread> decidedOn = new AtomicReference<>();
    private final ExecutorService remote = Executors.newSingleThreadExecutor();
    private RateLimiter limiter;
    private EventLoopGroup group;
    private Channel server;
    private int port;

    @BeforeEach
    void start() throws InterruptedException {
        clock.setMillis(1_000);
        limiter = RateLimiter.builder(config).clock(clock).build();
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        remote.shutdownNow();
        limiter.close();
    }

    private void serve(AsyncDecider decider) throws InterruptedException {
        Routes routes = Routes.builder().otherwise("any").build();
        RateLimitHeaders fields = RateLimitHeaders.of(config);
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(),
                                new SluiceAsyncHttpHandler(decider, ClientAddressResolver.peer(), routes, fields),
                                new HttpObjectAggregator(1 << 16), new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
                                        handled.incrementAndGet();
                                        FullHttpResponse r = new DefaultFullHttpResponse(req.protocolVersion(),
                                                HttpResponseStatus.OK, Unpooled.copiedBuffer(req.content()));
                                        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
                                        HttpUtil.setKeepAlive(r, HttpUtil.isKeepAlive(req));
                                        ctx.writeAndFlush(r);
                                    }
                                });
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        port = ((InetSocketAddress) server.localAddress()).getPort();
    }

    private AsyncDecider remoteLimiter() {
        return (user, api) -> CompletableFuture.supplyAsync(() -> {
            decidedOn.set(Thread.currentThread());
            Decision d = new Decision();
            limiter.tryAcquire(user, api, 1, clock.nanoTime(), d);
            return d;
        }, remote);
    }

    private HttpResponse<String> post(String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/echo"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void admittedRequestsReachTheAppWithTheirBodyAndFieldsThenAreDenied() throws Exception {
        serve(remoteLimiter());
        String body = "b".repeat(20_000);
        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> r = post(body);
            assertEquals(200, r.statusCode());
            assertEquals(body, r.body());
            assertEquals(Optional.of("\"default\";r=" + remaining + ";t=9"), r.headers().firstValue("RateLimit"));
        }
        HttpResponse<String> denied = post(body);
        assertEquals(429, denied.statusCode());
        assertEquals(Optional.of("9"), denied.headers().firstValue("Retry-After"));
        assertEquals(3, handled.get());
        assertNotEquals(null, decidedOn.get());
        clock.setMillis(10_000);
        assertEquals("again", post("again").body());
    }

    @Test
    void aFailedDecisionIsAnsweredServiceUnavailable() throws Exception {
        serve((user, api) -> CompletableFuture.failedFuture(new IllegalStateException("store unreachable")));
        assertEquals(503, post("x").statusCode());
        assertEquals(0, handled.get());
    }
}
