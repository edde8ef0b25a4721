package dev.sluice.http;

import java.util.List;
import java.util.Objects;

/**
 * Chooses the user part of a rate limit key from a request. The keys of the built-in resolvers carry a prefix
 * ({@code principal:}, {@code header:}, {@code client:}) so that a principal can never be named like a client
 * address and share its state.
 *
 * <p>Trust: only what the server established or what a trusted proxy asserted is used. A header chosen by the
 * client is never a key, unless the deployer names it with {@link #trustedHeader} and lists the proxies that set
 * it; from any other peer the header is ignored.
 */
@FunctionalInterface
public interface KeyResolver {

    /** The key for {@code request}; never null. */
    String resolve(HttpRequestView request);

    /** The authenticated principal's name, else what {@code anonymous} resolves (for example the client address). */
    static KeyResolver principal(KeyResolver anonymous) {
        Objects.requireNonNull(anonymous, "anonymous resolver must not be null");
        return request -> {
            String p = request.principal();
            return p != null ? "principal:" + p : anonymous.resolve(request);
        };
    }

    /** The client address, grouped by prefix, seen through trusted proxies: see {@link ClientAddressResolver}. */
    static KeyResolver clientAddress(ClientAddressResolver addresses) {
        Objects.requireNonNull(addresses, "client address resolver must not be null");
        return addresses::resolve;
    }

    /**
     * The value of the header {@code name} when, and only when, the request came from a peer that
     * {@code proxies} trusts (a proxy that sets the header itself, removing any value the client sent); from any
     * other peer, or when the header is absent or empty, what {@code otherwise} resolves.
     */
    static KeyResolver trustedHeader(String name, ClientAddressResolver proxies, KeyResolver otherwise) {
        Objects.requireNonNull(name, "header name must not be null");
        Objects.requireNonNull(proxies, "trusted proxies must not be null");
        Objects.requireNonNull(otherwise, "otherwise resolver must not be null");
        if (!proxies.hasTrustedProxies()) {
            throw new IllegalArgumentException("trustedHeader(" + name
                    + ") needs at least one trusted proxy: without one, any client could choose its own key");
        }
        return request -> {
            if (proxies.isTrusted(request.peerAddress())) {
                List<String> values = request.headers(name);
                if (!values.isEmpty() && !values.get(0).isBlank()) {
                    return "header:" + values.get(0).strip();
                }
            }
            return otherwise.resolve(request);
        };
    }
}
