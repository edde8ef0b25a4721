package dev.sluice.netty.bench;

import dev.sluice.Algorithm;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.RateLimitHeaders;
import dev.sluice.http.Routes;
import dev.sluice.netty.SluiceHttpHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The handler over an {@link EmbeddedChannel}, beside the same channel without it ({@code handler=none}), so that
 * {@code -prof gc}'s {@code gc.alloc.rate.norm} difference is the handler's, and beside a plain handler that adds
 * the same two fields with constant values to each response ({@code handler=floor}): what Netty's header entries
 * cost, so that {@code sluice - floor} is what the handler itself allocates (its values). The request target
 * {@code /pay/../pay/} is matched to the {@code pay} route; every request is admitted (a limit of 10^9 per second).
 * <ul>
 *   <li>{@code decide}: a request in through the pipeline to the application's end, no response: the decision
 *       path (connection key, route match, rule look-up, limiter). After 16 requests the queue of owed response
 *       fields is full and the handler only counts, so no field is written.</li>
 *   <li>{@code roundTrip}: the same, then the application's response written back through the handler, which
 *       adds the RateLimit fields to it.</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HandlerBenchmark {

    @Param({"none", "floor", "sluice"})
    public String handler;

    private RateLimiterService service;
    private EmbeddedChannel channel;
    private FullHttpRequest request;
    private FullHttpResponse response;

    @Setup
    public void setUp() {
        service = RateLimiterService.builder()
                .defaultConfig(RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L, Duration.ofSeconds(1)))
                .build();
        service.configureApi("pay", RateLimitConfig.of(Algorithm.TOKEN_BUCKET, 1_000_000_000L,
                Duration.ofSeconds(1)));
        Routes routes = Routes.builder().route("pay", "/pay").otherwise("other").build();
        channel = "sluice".equals(handler)
                ? new EmbeddedChannel(new SluiceHttpHandler(service, ClientAddressResolver.peer(), routes))
                : "floor".equals(handler) ? new EmbeddedChannel(new ChannelInboundHandlerAdapter(), new FieldsOnly())
                : new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/pay/../pay/",
                Unpooled.EMPTY_BUFFER);
        response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER);
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
        service.close();
    }

    @Benchmark
    public Object decide() {
        channel.pipeline().fireChannelRead(request);
        return channel.readInbound();
    }

    @Benchmark
    public Object roundTrip() {
        channel.pipeline().fireChannelRead(request);
        Object in = channel.readInbound();
        response.headers().clear();
        channel.write(response, channel.voidPromise());
        channel.flush();
        Object out = channel.readOutbound();
        return in == out ? null : out;
    }

    /** Adds the fields the handler adds, as the same name constants, with values built once: Netty's part alone. */
    private static final class FieldsOnly extends ChannelOutboundHandlerAdapter {
        private static final AsciiString RATELIMIT_POLICY = AsciiString.cached(RateLimitHeaders.RATELIMIT_POLICY);
        private static final AsciiString RATELIMIT = AsciiString.cached(RateLimitHeaders.RATELIMIT);
        private static final String POLICY_VALUE = "\"api\";q=1000000000;w=1";
        private static final String RATELIMIT_VALUE = "\"api\";r=999999999;t=1";

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof HttpResponse) {
                HttpHeaders headers = ((HttpResponse) msg).headers();
                headers.add(RATELIMIT_POLICY, POLICY_VALUE);
                headers.add(RATELIMIT, RATELIMIT_VALUE);
            }
            ctx.write(msg, promise);
        }
    }
}
