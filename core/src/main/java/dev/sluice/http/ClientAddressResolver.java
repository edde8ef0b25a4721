package dev.sluice.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Keys a request by its client's address, grouped by prefix, and finds that address behind trusted proxies.
 *
 * <p>Prefixes: by default {@value #DEFAULT_IPV4_PREFIX} bits for IPv4 (one address: clients behind one NAT share
 * it anyway, and a shorter prefix would lump unrelated customers of one provider together) and
 * {@value #DEFAULT_IPV6_PREFIX} bits for IPv6 (the smallest subnet an end site is given, RFC 4291 §2.5.1 and
 * SLAAC: one host can use any of the 2^64 addresses of its /64, so a longer prefix lets one client mint keys). A
 * deployer whose clients get /56 or /48 delegations can group by those instead.
 *
 * <p>Proxies: when the peer of the connection is a trusted proxy and a forwarding header is configured
 * ({@code Forwarded}, RFC 7239, or {@code X-Forwarded-For}), the client is the right-most address of that
 * header's list that is not itself a trusted proxy: each proxy appends the peer it saw, so the entries left of
 * the nearest untrusted one are whatever the client chose to send. An entry that is not an address literal
 * ({@code unknown}, an obfuscated identifier, a host name) ends the walk at the trusted hop that reported it. From
 * an untrusted peer the headers are ignored: the peer itself is the client.
 *
 * <p>Immutable and thread-safe.
 */
public final class ClientAddressResolver {

    public static final int DEFAULT_IPV4_PREFIX = 32;
    public static final int DEFAULT_IPV6_PREFIX = 64;

    /** The header a trusted proxy writes the client address into. */
    public enum ForwardedHeader {
        /** No header is read: the peer is the client. */
        NONE,
        /** {@code Forwarded: for=...} (RFC 7239). */
        FORWARDED,
        /** {@code X-Forwarded-For: client, proxy1, ...}. */
        X_FORWARDED_FOR
    }

    private final int ipv4Prefix;
    private final int ipv6Prefix;
    private final AddressRange[] trusted;
    private final ForwardedHeader header;
    private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[16]);
    /** Each hop of a forwarding list is parsed here before it is known to be the client. */
    private final ThreadLocal<byte[]> hops = ThreadLocal.withInitial(() -> new byte[16]);

    private ClientAddressResolver(Builder b) {
        this.ipv4Prefix = b.ipv4Prefix;
        this.ipv6Prefix = b.ipv6Prefix;
        this.trusted = b.trusted.toArray(new AddressRange[0]);
        this.header = b.header;
    }

    /** The peer address, /32 and /64, no proxy trusted. */
    public static ClientAddressResolver peer() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean hasTrustedProxies() {
        return trusted.length > 0;
    }

    /** Whether {@code peer} (an address literal) lies in a trusted proxy range. */
    public boolean isTrusted(String peer) {
        byte[] a = scratch.get();
        int len = IpAddresses.parse(peer, a);
        return len != IpAddresses.INVALID && isTrusted(a, len);
    }

    private boolean isTrusted(byte[] address, int length) {
        for (AddressRange r : trusted) {
            if (r.contains(address, length)) {
                return true;
            }
        }
        return false;
    }

    /** The key {@code client:<address>/<prefix>} of the request's client. */
    public String resolve(HttpRequestView request) {
        byte[] a = scratch.get();
        int len = resolve(request.peerAddress(), header == ForwardedHeader.NONE ? List.of()
                : request.headers(headerName()), a);
        if (len == IpAddresses.INVALID) {
            return "client:" + request.peerAddress();
        }
        return "client:" + IpAddresses.format(a, len, len == 4 ? ipv4Prefix : ipv6Prefix);
    }

    /** The name of the configured forwarding header, or null for {@link ForwardedHeader#NONE}. */
    public String headerName() {
        switch (header) {
            case FORWARDED:
                return "Forwarded";
            case X_FORWARDED_FOR:
                return "X-Forwarded-For";
            default:
                return null;
        }
    }

    /**
     * The client's address, masked to its prefix, into {@code out} (16 bytes or more), from the peer address and
     * the values of the configured forwarding header (ignored unless the peer is trusted). Allocates nothing.
     *
     * @return 4 or 16, or {@link IpAddresses#INVALID} when the peer is not an address literal
     */
    public int resolve(CharSequence peer, List<? extends CharSequence> forwarded, byte[] out) {
        int len = IpAddresses.parse(peer, out);
        if (len == IpAddresses.INVALID) {
            return len;
        }
        if (header != ForwardedHeader.NONE && isTrusted(out, len)) {
            len = walk(forwarded, out, len, hops.get());
        }
        IpAddresses.mask(out, len, len == 4 ? ipv4Prefix : ipv6Prefix);
        return len;
    }

    /** Right to left through the list; {@code out} holds the nearest trusted hop until an untrusted one is found. */
    private int walk(List<? extends CharSequence> values, byte[] out, int len, byte[] hop) {
        for (int v = values.size() - 1; v >= 0; v--) {
            CharSequence s = values.get(v);
            int end = s.length();
            while (end >= 0) {
                int start = end - 1;
                while (start >= 0 && s.charAt(start) != ',') {
                    start--;
                }
                int hopLen = header == ForwardedHeader.FORWARDED ? forwardedFor(s, start + 1, end, hop)
                        : plainAddress(s, start + 1, end, hop);
                if (hopLen == IpAddresses.INVALID) {
                    return len;
                }
                System.arraycopy(hop, 0, out, 0, hopLen);
                len = hopLen;
                if (!isTrusted(out, len)) {
                    return len;
                }
                end = start;
            }
        }
        return len;
    }

    /** The {@code for=} node of one Forwarded element in {@code s[from, to)}. */
    private static int forwardedFor(CharSequence s, int from, int to, byte[] out) {
        int i = from;
        while (i < to) {
            int semi = i;
            while (semi < to && s.charAt(semi) != ';') {
                semi++;
            }
            int a = skipSpace(s, i, semi);
            if (semi - a > 4 && regionIsFor(s, a)) {
                int b = a + 4;
                int e = trimEnd(s, b, semi);
                if (e - b >= 2 && s.charAt(b) == '"' && s.charAt(e - 1) == '"') {
                    b++;
                    e--;
                }
                return node(s, b, e, out);
            }
            i = semi + 1;
        }
        return IpAddresses.INVALID;
    }

    private static boolean regionIsFor(CharSequence s, int a) {
        return (s.charAt(a) | 0x20) == 'f' && (s.charAt(a + 1) | 0x20) == 'o' && (s.charAt(a + 2) | 0x20) == 'r'
                && s.charAt(a + 3) == '=';
    }

    private static int plainAddress(CharSequence s, int from, int to, byte[] out) {
        int b = skipSpace(s, from, to);
        return node(s, b, trimEnd(s, b, to), out);
    }

    /** An address with an optional port: {@code 192.0.2.1}, {@code 192.0.2.1:80}, {@code [2001:db8::1]:80}. */
    private static int node(CharSequence s, int from, int to, byte[] out) {
        if (from < to && s.charAt(from) == '[') {
            int close = from;
            while (close < to && s.charAt(close) != ']') {
                close++;
            }
            return close == to ? IpAddresses.INVALID : IpAddresses.parse(s, from + 1, close, out);
        }
        int colons = 0;
        int last = -1;
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == ':') {
                colons++;
                last = i;
            }
        }
        return IpAddresses.parse(s, from, colons == 1 ? last : to, out);
    }

    private static int skipSpace(CharSequence s, int from, int to) {
        while (from < to && (s.charAt(from) == ' ' || s.charAt(from) == '\t')) {
            from++;
        }
        return from;
    }

    private static int trimEnd(CharSequence s, int from, int to) {
        while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
            to--;
        }
        return to;
    }

    public static final class Builder {
        private int ipv4Prefix = DEFAULT_IPV4_PREFIX;
        private int ipv6Prefix = DEFAULT_IPV6_PREFIX;
        private final List<AddressRange> trusted = new ArrayList<>();
        private ForwardedHeader header = ForwardedHeader.NONE;

        private Builder() {
        }

        /** Bits of an IPv4 address that name a client, 8 to 32. */
        public Builder ipv4Prefix(int bits) {
            if (bits < 8 || bits > 32) {
                throw new IllegalArgumentException("ipv4Prefix must be 8 to 32 bits, was " + bits);
            }
            this.ipv4Prefix = bits;
            return this;
        }

        /** Bits of an IPv6 address that name a client, 16 to 128. */
        public Builder ipv6Prefix(int bits) {
            if (bits < 16 || bits > 128) {
                throw new IllegalArgumentException("ipv6Prefix must be 16 to 128 bits, was " + bits);
            }
            this.ipv6Prefix = bits;
            return this;
        }

        /** Proxies (addresses or CIDR blocks) whose forwarding header is believed. */
        public Builder trustedProxies(String... ranges) {
            for (String r : ranges) {
                trusted.add(AddressRange.parse(r));
            }
            return this;
        }

        /** The header the trusted proxies write; {@link ForwardedHeader#NONE} by default. */
        public Builder forwardedHeader(ForwardedHeader header) {
            this.header = Objects.requireNonNull(header, "forwardedHeader must not be null");
            return this;
        }

        public ClientAddressResolver build() {
            if (header != ForwardedHeader.NONE && trusted.isEmpty()) {
                throw new IllegalArgumentException("forwardedHeader " + header
                        + " needs at least one trusted proxy: from any other peer the header is the client's word");
            }
            return new ClientAddressResolver(this);
        }
    }
}
