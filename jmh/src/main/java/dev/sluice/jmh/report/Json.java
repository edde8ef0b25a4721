package dev.sluice.jmh.report;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JMH's result files read with Jackson: objects become maps, arrays lists, numbers {@link Number}s. JMH may write a
 * bare {@code NaN} or {@code Infinity} for an error bar, which the reader accepts.
 */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private Json() {
    }

    static Object parse(String text) {
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (IOException e) {
            throw new UncheckedIOException("not a JMH result file: " + e.getMessage(), e);
        }
    }
}
