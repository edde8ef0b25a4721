package dev.sluice.scg;

import dev.sluice.http.ClientAddressResolver;
import dev.sluice.http.HttpRequestView;
import java.net.InetSocketAddress;
import java.security.Principal;
import java.util.List;
import java.util.Objects;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.http.server.reactive.ServerHttpRequest;
import reactor.core.publisher.Mono;

/**
 * {@link KeyResolver}s a gateway can trust, to declare as beans and name in a route's {@code key-resolver}: the
 * authenticated principal (what Spring Security established), else the client address; or the client address
 * alone, grouped by prefix and read through trusted proxies only ({@link ClientAddressResolver}). No client-sent
 * header is a key. Keys carry the same prefixes as {@link dev.sluice.http.KeyResolver}'s.
 */
public final class SluiceKeyResolvers {

    private SluiceKeyResolvers() {
    }

    /** {@code client:<address>/<prefix>} of the exchange's client. */
    public static KeyResolver clientAddress(ClientAddressResolver addresses) {
        Objects.requireNonNull(addresses, "client address resolver must not be null");
        return exchange -> Mono.just(addresses.resolve(new View(exchange.getRequest())));
    }

    /** {@code principal:<name>} when the exchange is authenticated, else what {@code anonymous} resolves. */
    public static KeyResolver principal(KeyResolver anonymous) {
        Objects.requireNonNull(anonymous, "anonymous resolver must not be null");
        return exchange -> exchange.getPrincipal().map(Principal::getName).map(name -> "principal:" + name)
                .switchIfEmpty(Mono.defer(() -> anonymous.resolve(exchange)));
    }

    private static final class View implements HttpRequestView {
        private final ServerHttpRequest request;

        View(ServerHttpRequest request) {
            this.request = request;
        }

        @Override
        public String rawPath() {
            return request.getURI().getRawPath();
        }

        @Override
        public String peerAddress() {
            InetSocketAddress remote = request.getRemoteAddress();
            return remote == null || remote.getAddress() == null ? "" : remote.getAddress().getHostAddress();
        }

        @Override
        public String principal() {
            return null;
        }

        @Override
        public List<String> headers(String name) {
            List<String> values = request.getHeaders().get(name);
            return values == null ? List.of() : values;
        }
    }
}
