package dev.sluice;

import java.util.Objects;

/**
 * The Structured Field text (RFC 9651) of a limit for the RateLimit header fields that
 * {@code dev.sluice.http.RateLimitHeaders} writes: in this package so that a {@link Policy} computes its Quota
 * Policy Item once, when it is built, with the code the HTTP package formats with, and {@code dev.sluice} depends on
 * no HTTP class. Stateless.
 */
public final class StructuredFields {

    /** The largest Integer a Structured Field can carry (RFC 9651 §3.3.1): fifteen nines. */
    public static final long MAX_INTEGER = 999_999_999_999_999L;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private StructuredFields() {
    }

    /** {@code value} capped at {@link #MAX_INTEGER}. */
    public static long cap(long value) {
        return Math.min(value, MAX_INTEGER);
    }

    /** {@code nanos} in whole seconds, rounded up; 0 for 0 or less. */
    public static long ceilSeconds(long nanos) {
        return nanos <= 0 ? 0 : (nanos - 1) / NANOS_PER_SECOND + 1;
    }

    /** {@code name} as a Structured Field String (RFC 9651 §3.3.3): quoted, with {@code "} and {@code \} escaped. */
    public static String quote(String name) {
        return appendQuoted(new StringBuilder(name.length() + 2), name).toString();
    }

    /**
     * One Quota Policy Item (draft-ietf-httpapi-ratelimit-headers-11 §3): the quoted name, {@code q} the limit,
     * {@code w} the window in whole seconds rounded up (never advertising a higher rate than the enforced one) and,
     * for a bucket whose burst differs from its limit, the vendor parameter {@code sluice-burst}.
     */
    public static String quotaPolicyItem(String name, RateLimitConfig config) {
        Objects.requireNonNull(config, "config must not be null");
        StringBuilder sb = new StringBuilder(name.length() + 48);
        appendQuoted(sb, name).append(";q=").append(cap(config.limit())).append(";w=")
                .append(cap(ceilSeconds(config.windowNanos())));
        if (config.burst() != config.limit()) {
            sb.append(";sluice-burst=").append(cap(config.burst()));
        }
        return sb.toString();
    }

    private static StringBuilder appendQuoted(StringBuilder sb, String name) {
        sb.append('"');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('"');
    }
}
