package dev.sluice.netty;

import dev.sluice.http.HttpRequestView;
import io.netty.handler.codec.http.HttpRequest;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

/** A Netty request as a key resolver reads it. */
final class NettyRequestView implements HttpRequestView {
    private final SocketAddress peer;
    private final HttpRequest request;

    NettyRequestView(SocketAddress peer, HttpRequest request) {
        this.peer = peer;
        this.request = request;
    }

    @Override
    public String rawPath() {
        String uri = request.uri();
        return uri.substring(SluiceHttpHandler.pathStart(uri));
    }

    @Override
    public String peerAddress() {
        if (peer instanceof InetSocketAddress && ((InetSocketAddress) peer).getAddress() != null) {
            return ((InetSocketAddress) peer).getAddress().getHostAddress();
        }
        return String.valueOf(peer);
    }

    @Override
    public String principal() {
        return null;
    }

    @Override
    public List<String> headers(String name) {
        return request.headers().getAll(name);
    }
}
