package dev.sluice.netty.bench;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.Routes;
import dev.sluice.netty.SluiceHttpHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A minimal Netty HTTP server on loopback answering {@code ok} to every request, with or without the Sluice handler
 * in front (a limit never reached, so every request is decided and admitted): {@code bench/http-overhead.sh} drives
 * it with wrk. Arguments: {@code with|without} and a file to write the bound port to. Runs until killed.
 */
public final class OverheadServer {

    private OverheadServer() {
    }

    public static void main(String[] args) throws Exception {
        boolean with = "with".equals(args[0]);
        RateLimiterService service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L, Duration.ofSeconds(1)))
                .build();
        service.configureApi("hello", RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L,
                Duration.ofSeconds(1)));
        Routes routes = Routes.builder().route("hello", "/hello").otherwise("other").build();
        ByteBuf body = Unpooled.unreleasableBuffer(
                Unpooled.directBuffer().writeBytes("ok".getBytes(StandardCharsets.US_ASCII)));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec());
                        if (with) {
                            ch.pipeline().addLast(new SluiceHttpHandler(service, ClientAddressResolver.peer(), routes));
                        }
                        ch.pipeline().addLast(new Ok(body));
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        Files.writeString(Path.of(args[1]), Integer.toString(((InetSocketAddress) server.localAddress()).getPort()));
        server.closeFuture().sync();
    }

    /** Answers each request with {@code ok}, keeping the connection open. */
    private static final class Ok extends ChannelInboundHandlerAdapter {
        private final ByteBuf body;

        Ok(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest) {
                boolean keepAlive = HttpUtil.isKeepAlive((HttpRequest) msg);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        body.duplicate());
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
                HttpUtil.setKeepAlive(response, keepAlive);
                ctx.write(response);
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
