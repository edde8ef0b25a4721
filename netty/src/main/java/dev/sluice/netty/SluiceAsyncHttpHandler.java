package dev.sluice.netty;

import dev.sluice.Decision;
import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.RateLimitHeaders;
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
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * As {@link SluiceHttpHandler}, for a limiter behind the network (Redis): each request is decided by an
 * {@link AsyncDecider}, and the event loop never waits for the answer. While a decision is outstanding the
 * channel stops reading, and whatever the codec had already decoded (the request's body, a pipelined request) is
 * held, in order, until the answer arrives on the event loop. An admitted request then goes on with its held
 * parts; a denied one is answered {@code 429} and its body dropped. A decision that fails is answered
 * {@code 503 Service Unavailable} (choose fail-open or fail-closed in the limiter itself, for example the Redis
 * limiter's failure policy, so that this is only for the unexpected).
 *
 * <p>Fields: {@code fields} (the headers of the limit the decider enforces) writes them from each decision. Keys as
 * in {@link SluiceHttpHandler}. This path allocates per request (the decider's future and decision, the held
 * queue's entries): it is for the remote backend, where the round trip dominates. One instance per channel.
 */
public final class SluiceAsyncHttpHandler extends ChannelDuplexHandler {

    private final AsyncDecider decider;
    private final ClientAddressResolver clients;
    private final Routes routes;
    private final RateLimitHeaders fields;
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private final ArrayDeque<Decision> owed = new ArrayDeque<>();
    private final HeaderSink sink = new HeaderSink();
    private boolean pending;
    private boolean discarding;
    private String connectionKey;

    public SluiceAsyncHttpHandler(AsyncDecider decider, ClientAddressResolver clients, Routes routes,
            RateLimitHeaders fields) {
        this.decider = Objects.requireNonNull(decider, "decider must not be null");
        this.clients = Objects.requireNonNull(clients, "clients must not be null");
        this.routes = Objects.requireNonNull(routes, "routes must not be null");
        this.fields = Objects.requireNonNull(fields, "fields must not be null");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (pending) {
            held.add(msg);
            return;
        }
        if (msg instanceof HttpRequest) {
            decide(ctx, (HttpRequest) msg);
            return;
        }
        if (discarding && msg instanceof HttpContent) {
            discarding = !(msg instanceof LastHttpContent);
            ReferenceCountUtil.release(msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    private void decide(ChannelHandlerContext ctx, HttpRequest request) {
        String user = connectionKey;
        if (user == null || clients.headerName() != null) {
            user = clients.resolve(new NettyRequestView(ctx.channel().remoteAddress(), request));
            connectionKey = user;
        }
        String uri = request.uri();
        int from = SluiceHttpHandler.pathStart(uri);
        String api = routes.match(uri, from, uri.length());
        if (api == null) {
            api = routes.resolve(uri.substring(from));
        }
        pending = true;
        ctx.channel().config().setAutoRead(false);
        decider.decide(user, api).whenComplete((decision, failure) ->
                ctx.executor().execute(() -> answer(ctx, request, decision, failure)));
    }

    /** On the event loop: lets the request on or answers it, then replays what was held meanwhile. */
    private void answer(ChannelHandlerContext ctx, HttpRequest request, Decision decision, Throwable failure) {
        pending = false;
        if (!ctx.channel().isActive()) {
            ReferenceCountUtil.release(request);
            releaseHeld();
            return;
        }
        if (failure == null && decision != null && decision.allowed()) {
            owed.add(decision);
            discarding = false;
            ctx.fireChannelRead(request);
        } else {
            discarding = !(request instanceof LastHttpContent);
            ReferenceCountUtil.release(request);
            reject(ctx, request, failure == null ? decision : null);
        }
        while (!pending && !held.isEmpty()) {
            channelRead(ctx, held.poll());
        }
        if (!pending) {
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }
    }

    private void reject(ChannelHandlerContext ctx, HttpRequest request, Decision decision) {
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(),
                decision == null ? HttpResponseStatus.SERVICE_UNAVAILABLE : HttpResponseStatus.TOO_MANY_REQUESTS,
                Unpooled.EMPTY_BUFFER);
        if (decision != null) {
            fields.write(decision, sink.to(response.headers()));
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        ctx.writeAndFlush(response).addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE
                : ChannelFutureListener.CLOSE);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse && ((HttpResponse) msg).status().code() >= 200) {
            Decision d = owed.poll();
            if (d != null) {
                fields.write(d, sink.to(((HttpResponse) msg).headers()));
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseHeld();
        ctx.fireChannelInactive();
    }

    private void releaseHeld() {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
    }
}
