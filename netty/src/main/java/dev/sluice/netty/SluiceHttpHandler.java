package dev.sluice.netty;

import dev.sluice.Decision;
import dev.sluice.RateLimiterService;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.DecisionHeaders;
import dev.sluice.http.Routes;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.Objects;

/**
 * Decides each HTTP request with a {@link RateLimiterService} before it reaches the application; put it right
 * after {@code HttpServerCodec} (before any aggregator, so a denied body is never buffered). A denied request is
 * answered {@code 429} with {@code Retry-After} and the RateLimit fields, its body is discarded, and the
 * application never sees it; an admitted one goes on, and the RateLimit fields are added to the application's
 * response as it is written.
 *
 * <p>Keys: the user is the connection's client address ({@link ClientAddressResolver}: prefix-grouped, computed
 * once per connection), the api the {@link Routes} id of the request target, matched on its characters. With
 * routes that name every path ({@link Routes.Builder#otherwise}), and no forwarding header, deciding a request
 * creates no String and allocates nothing. A resolver with a forwarding header reads the client per request and
 * builds its key String then; routes without an {@code otherwise} id build the normalized path of an unmatched
 * request.
 *
 * <p>Event loop: the decision runs on the channel's event loop and must not block, so the service's limiters must
 * be local (the lock-free engine: no I/O, no lock). For a remote backend use {@link SluiceAsyncHttpHandler}.
 *
 * <p>One instance per channel (it holds the connection's key and the fields of the responses still owed):
 * not sharable. The fields of up to {@value #PIPELINE} admitted requests still awaiting their response are kept,
 * and a response beyond that goes without them. A denial is written at once: with HTTP/1.1 pipelining it can
 * overtake the response to an earlier admitted request that the application has not written yet.
 */
public final class SluiceHttpHandler extends ChannelDuplexHandler {

    /** Admitted requests whose response fields are kept until their response is written. */
    public static final int PIPELINE = 16;

    private final RateLimiterService service;
    private final ClientAddressResolver clients;
    private final Routes routes;
    private final DecisionHeaders headers;

    private final Decision decision = new Decision();
    /** The (user, api) of each admitted request still owed its fields, in arrival order. */
    private final String[] owedUsers = new String[PIPELINE];
    private final String[] owedApis = new String[PIPELINE];
    private final Decision[] owedDecisions = new Decision[PIPELINE];
    private int owedHead;
    private int owedCount;
    /** Requests admitted whose fields could not be kept: their responses pass without fields. */
    private int overflow;
    private boolean discarding;
    private String connectionKey;
    private final HeaderSink sink = new HeaderSink();

    public SluiceHttpHandler(RateLimiterService service, ClientAddressResolver clients, Routes routes) {
        this.service = Objects.requireNonNull(service, "service must not be null");
        this.clients = Objects.requireNonNull(clients, "clients must not be null");
        this.routes = Objects.requireNonNull(routes, "routes must not be null");
        this.headers = new DecisionHeaders(service);
        for (int i = 0; i < PIPELINE; i++) {
            owedDecisions[i] = new Decision();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            HttpRequest request = (HttpRequest) msg;
            String user = user(ctx, request);
            String uri = request.uri();
            String api = routes.match(uri, pathStart(uri), uri.length());
            if (api == null) {
                api = routes.resolve(uri.substring(pathStart(uri)));
            }
            if (service.allow(user, api, 1, decision)) {
                owe(user, api);
                discarding = false;
                ctx.fireChannelRead(msg);
            } else {
                discarding = !(msg instanceof LastHttpContent);
                ReferenceCountUtil.release(msg);
                deny(ctx, request, user, api);
            }
            return;
        }
        if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse && ((HttpResponse) msg).status().code() >= 200) {
            HttpResponse response = (HttpResponse) msg;
            if (owedCount > 0) {
                int slot = owedHead;
                owedHead = (owedHead + 1) % PIPELINE;
                owedCount--;
                headers.write(owedUsers[slot], owedApis[slot], owedDecisions[slot], sink.to(response.headers()));
                owedUsers[slot] = null;
                owedApis[slot] = null;
            } else if (overflow > 0) {
                overflow--;
            }
        }
        ctx.write(msg, promise);
    }

    private void owe(String user, String api) {
        if (owedCount == PIPELINE || overflow > 0) {
            overflow++;
            return;
        }
        int slot = (owedHead + owedCount) % PIPELINE;
        owedUsers[slot] = user;
        owedApis[slot] = api;
        owedDecisions[slot].copyFrom(decision);
        owedCount++;
    }

    private void deny(ChannelHandlerContext ctx, HttpRequest request, String user, String api) {
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(),
                HttpResponseStatus.TOO_MANY_REQUESTS, Unpooled.EMPTY_BUFFER);
        HttpHeaders h = response.headers();
        headers.write(user, api, decision, sink.to(h));
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        // A body still arriving is read and dropped, so the connection stays usable for the next request.
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        // Written past this handler: a denial owes no fields to the queue of admitted responses.
        ctx.writeAndFlush(response).addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE
                : ChannelFutureListener.CLOSE);
    }

    private String user(ChannelHandlerContext ctx, HttpRequest request) {
        if (clients.headerName() != null) {
            return clients.resolve(new NettyRequestView(ctx.channel().remoteAddress(), request));
        }
        String key = connectionKey;
        if (key == null) {
            key = clients.resolve(new NettyRequestView(ctx.channel().remoteAddress(), request));
            connectionKey = key;
        }
        return key;
    }

    /** Where the path starts in a request target: after {@code scheme://authority} in absolute form. */
    static int pathStart(String uri) {
        if (uri.isEmpty() || uri.charAt(0) == '/') {
            return 0;
        }
        int scheme = uri.indexOf("://");
        if (scheme < 0) {
            return 0;
        }
        int slash = uri.indexOf('/', scheme + 3);
        return slash < 0 ? uri.length() : slash;
    }
}
