package dev.sluice.rules;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people write them in rule files: {@code 500ms}, {@code 1s}, {@code 10m}, {@code 1h30m}, {@code 1d}. */
final class Durations {

    private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
    private static final long[] UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};
    private static final String[] UNIT_NAMES = {"d", "h", "m", "s", "ms"};

    static final String SYNTAX = "a whole number and a unit (ms, s, m, h, d), or several, such as 500ms, 1s, 10m, 1h30m, 1d";

    private Durations() {
    }

    /** The duration written as {@code text}, or null if it is not of that form (or too long for a long of ms). */
    static Duration parse(String text) {
        if (!WHOLE.matcher(text).matches()) {
            return null;
        }
        long millis = 0;
        Matcher m = PART.matcher(text);
        try {
            while (m.find()) {
                long n = Long.parseLong(m.group(1));
                millis = Math.addExact(millis, Math.multiplyExact(n, unitMillis(m.group(2))));
            }
        } catch (ArithmeticException | NumberFormatException tooLong) {
            return null;
        }
        return Duration.ofMillis(millis);
    }

    private static long unitMillis(String unit) {
        for (int i = 0; i < UNIT_NAMES.length; i++) {
            if (UNIT_NAMES[i].equals(unit)) {
                return UNIT_MILLIS[i];
            }
        }
        throw new AssertionError(unit);
    }

    /** {@code d} in the same notation, largest units first: {@code 366d}, {@code 1h30m}, {@code 1ms}. */
    static String format(Duration d) {
        long millis = d.toMillis();
        if (millis == 0) {
            return "0ms";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < UNIT_MILLIS.length; i++) {
            if (millis >= UNIT_MILLIS[i]) {
                sb.append(millis / UNIT_MILLIS[i]).append(UNIT_NAMES[i]);
                millis %= UNIT_MILLIS[i];
            }
        }
        return sb.toString();
    }
}
