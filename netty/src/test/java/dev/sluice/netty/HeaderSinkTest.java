package dev.sluice.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.sluice.http.RateLimitHeaders;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderSinkTest {

    @Test
    void theFieldNamesGoInAsOneAsciiStringConstantEach() {
        for (String name : List.of(RateLimitHeaders.RATELIMIT, RateLimitHeaders.RATELIMIT_POLICY,
                RateLimitHeaders.RETRY_AFTER)) {
            CharSequence ascii = HeaderSink.asciiName(name);
            assertInstanceOf(AsciiString.class, ascii, name);
            assertEquals(name, ascii.toString());
            assertSame(ascii, HeaderSink.asciiName(new String(name)), "the same constant for an equal name");
        }
        assertEquals("X-Other", HeaderSink.asciiName("X-Other"), "another name goes in as it is");
    }

    @Test
    void writesEachFieldToTheHeadersItWasLastPointedAt() {
        HttpHeaders first = new DefaultHttpHeaders();
        HttpHeaders second = new DefaultHttpHeaders();
        HeaderSink sink = new HeaderSink();
        sink.to(first).accept(RateLimitHeaders.RATELIMIT, "\"default\";r=1;t=2");
        sink.to(second).accept(RateLimitHeaders.RETRY_AFTER, "7");
        assertEquals(List.of("\"default\";r=1;t=2"), first.getAll("ratelimit"));
        assertEquals(1, first.size());
        assertEquals("7", second.get("Retry-After"));
        assertEquals(1, second.size());
    }
}
