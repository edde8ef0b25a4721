package dev.sluice.rules;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Set;

/** Typed reads of a node's fields; each failure is an error at the field naming what is allowed. */
final class Fields {

    private Fields() {
    }

    /** Every field of {@code object} must be one of {@code allowed} (listed, in order, in the error). */
    static void onlyKnown(Node object, Set<String> allowed) throws RuleFileException {
        for (Node f : object.fields.values()) {
            String name = f.path.substring(f.path.lastIndexOf('.') + 1);
            if (!allowed.contains(name)) {
                throw f.error("unknown field; allowed here: " + String.join(", ", allowed));
            }
        }
    }

    static Node expect(Node n, Node.Kind kind, String what) throws RuleFileException {
        if (n.kind != kind) {
            throw n.error("expected " + what + ", was " + n.described());
        }
        return n;
    }

    static Node required(Node object, String name, String what) throws RuleFileException {
        Node n = object.field(name);
        if (n == null) {
            throw new RuleFileException(object.source, object.line, object.column, object.child(name),
                    "missing; expected " + what);
        }
        return n;
    }

    static String string(Node n) throws RuleFileException {
        return expect(n, Node.Kind.STRING, "a string (quote a name that looks like a number or true/false)").text;
    }

    static boolean bool(Node n) throws RuleFileException {
        return Boolean.parseBoolean(expect(n, Node.Kind.BOOLEAN, "true or false").text);
    }

    /** An integer in {@code [min, max]}. */
    static long integer(Node n, long min, long max, String context) throws RuleFileException {
        expect(n, Node.Kind.INTEGER, "a whole number from " + min + " to " + max + context);
        long v;
        try {
            v = Long.parseLong(n.text);
        } catch (NumberFormatException huge) {
            throw n.error("must be from " + min + " to " + max + context + ", was " + n.text);
        }
        if (v < min || v > max) {
            throw n.error("must be from " + min + " to " + max + context + ", was " + n.text);
        }
        return v;
    }

    /** A duration from {@code min} to {@code max}. */
    static Duration duration(Node n, Duration min, Duration max) throws RuleFileException {
        String range = " from " + Durations.format(min) + " to " + Durations.format(max);
        String text = expect(n, Node.Kind.STRING, "a duration" + range + ": " + Durations.SYNTAX).text;
        Duration d = Durations.parse(text);
        if (d == null) {
            throw n.error("'" + text + "' is not a duration; write " + Durations.SYNTAX);
        }
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw n.error("must be" + range + ", was " + text);
        }
        return d;
    }

    /** A UTC offset: {@code Z}, {@code UTC}, {@code +HH:MM} or {@code -HH:MM}, within 18 hours. */
    static ZoneOffset offset(Node n) throws RuleFileException {
        String allowed = "Z, UTC or an offset such as +02:00, -05:30 (at most 18 hours)";
        String text = expect(n, Node.Kind.STRING, allowed).text;
        if (text.equals("UTC")) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneOffset.of(text);
        } catch (DateTimeException e) {
            throw n.error("'" + text + "' is not a UTC offset; write " + allowed);
        }
    }

    /** One of an enum's constants, written in lower case with underscores (any case and '-' accepted). */
    static <E extends Enum<E>> E choice(Node n, Class<E> type) throws RuleFileException {
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
        }
        String text = expect(n, Node.Kind.STRING, "one of " + allowed).text;
        String key = text.toUpperCase(Locale.ROOT).replace('-', '_');
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(key)) {
                return e;
            }
        }
        throw n.error("'" + text + "' is not one of " + allowed);
    }

    /** An exception of the rule model, placed at {@code n}. */
    static RuleFileException refused(Node n, IllegalArgumentException e) {
        return n.error(e.getMessage());
    }
}
