package dev.sluice.netty;

import dev.sluice.http.RateLimitHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.function.BiConsumer;

/**
 * Adds each field to the headers it was last pointed at; one per handler, used on its event loop, so writing the
 * fields allocates no lambda. The names {@link RateLimitHeaders} writes go in as {@link AsciiString} constants,
 * whose hash and bytes Netty reads as they are.
 */
final class HeaderSink implements BiConsumer<String, String> {
    private static final AsciiString RATELIMIT_POLICY = AsciiString.cached(RateLimitHeaders.RATELIMIT_POLICY);
    private static final AsciiString RATELIMIT = AsciiString.cached(RateLimitHeaders.RATELIMIT);
    private static final AsciiString RETRY_AFTER = AsciiString.cached(RateLimitHeaders.RETRY_AFTER);

    private HttpHeaders target;

    HeaderSink to(HttpHeaders headers) {
        this.target = headers;
        return this;
    }

    @Override
    public void accept(String name, String value) {
        target.add(asciiName(name), value);
    }

    /** The constant for a name {@link RateLimitHeaders} writes, else the name itself. */
    static CharSequence asciiName(String name) {
        if (RateLimitHeaders.RATELIMIT.equals(name)) {
            return RATELIMIT;
        }
        if (RateLimitHeaders.RATELIMIT_POLICY.equals(name)) {
            return RATELIMIT_POLICY;
        }
        return RateLimitHeaders.RETRY_AFTER.equals(name) ? RETRY_AFTER : name;
    }
}
