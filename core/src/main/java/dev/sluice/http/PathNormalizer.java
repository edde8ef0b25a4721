package dev.sluice.http;

import java.nio.charset.StandardCharsets;

/**
 * One text per resource path, so that a rate limit keyed by path cannot be escaped by spelling the path another
 * way. In one pass, allocating nothing:
 * <ol>
 *   <li>the query and fragment are dropped, and so are path parameters (from a raw {@code ;} to the end of its
 *       segment: {@code /pay;jsessionid=1} is {@code /pay}), since servlet containers map a request without them;
 *       an encoded {@code %3B} is kept;</li>
 *   <li>percent-encoding is normalized (RFC 3986 §6.2.2.2): an encoded unreserved character ({@code ALPHA DIGIT - . _ ~})
 *       is decoded, every other encoding is kept with upper-case hex, so an encoded {@code /} ({@code %2F}) stays
 *       distinct from a segment separator; a character that may not appear raw in a path (space, non-ASCII,
 *       ...) is encoded as UTF-8, and a {@code %} not followed by two hex digits becomes {@code %25};</li>
 *   <li>dot segments are removed (RFC 3986 §5.2.4), after decoding, so {@code /%2e%2e/} counts as {@code /../};
 *       {@code ..} above the root stays at the root;</li>
 *   <li>empty segments are dropped: duplicate slashes collapse and a trailing slash goes ({@code /pay/} is
 *       {@code /pay}); the root is {@code /}.</li>
 * </ol>
 * Case: a path is case-sensitive (RFC 3986 §6.2.2.1), and Jetty, Tomcat and Netty route it so, so {@code /PAY} is
 * by default another path than {@code /pay}. A deployer whose application matches paths without regard to case
 * folds ASCII letters with {@code foldCase}; retained encodings are never folded.
 */
public final class PathNormalizer {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private PathNormalizer() {
    }

    /** The normalized path of {@code raw} (a request target's path, with or without query). */
    public static String normalize(CharSequence raw, boolean foldCase) {
        byte[] out = new byte[maxLength(raw.length())];
        int n = normalize(raw, 0, raw.length(), foldCase, out);
        return new String(out, 0, n, StandardCharsets.US_ASCII);
    }

    /** {@link #normalize(CharSequence, boolean)}, case-sensitive. */
    public static String normalize(CharSequence raw) {
        return normalize(raw, false);
    }

    /** The most bytes a path of {@code chars} characters can normalize to: every character as up to 4 encoded bytes. */
    public static int maxLength(int chars) {
        return chars * 12 + 2;
    }

    /**
     * Writes the normalized path of {@code raw[from, to)} into {@code out} as US-ASCII bytes.
     *
     * @return the length written, or -1 if {@code out} is too short (never with {@link #maxLength} bytes)
     */
    public static int normalize(CharSequence raw, int from, int to, boolean foldCase, byte[] out) {
        if (out.length < 1) {
            return -1;
        }
        out[0] = '/';
        int p = 1;
        int segStart = 1;
        for (int i = from; i < to; i++) {
            char c = raw.charAt(i);
            if (c == '?' || c == '#') {
                break;
            }
            if (c == '/') {
                p = endSegment(out, segStart, p);
                segStart = p;
                continue;
            }
            if (c == ';') {
                // Path parameters: dropped up to the next segment, as servlet containers do when they map.
                while (i + 1 < to && raw.charAt(i + 1) != '/' && raw.charAt(i + 1) != '?' && raw.charAt(i + 1) != '#') {
                    i++;
                }
                continue;
            }
            if (out.length - p < 12) {
                return -1;
            }
            if (c == '%') {
                int hi = i + 2 < to ? IpAddresses.hex(raw.charAt(i + 1)) : -1;
                int lo = hi >= 0 ? IpAddresses.hex(raw.charAt(i + 2)) : -1;
                if (lo < 0) {
                    p = encode(out, p, '%');
                } else {
                    int b = (hi << 4) | lo;
                    i += 2;
                    p = isUnreserved(b) ? put(out, p, b, foldCase) : encode(out, p, b);
                }
            } else if (c < 0x80) {
                p = isPathChar(c) ? put(out, p, c, foldCase) : encode(out, p, c);
            } else {
                int cp = c;
                if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(raw.charAt(i + 1))) {
                    cp = Character.toCodePoint(c, raw.charAt(++i));
                } else if (Character.isSurrogate(c)) {
                    cp = 0xFFFD;
                }
                p = encodeUtf8(out, p, cp);
            }
        }
        p = endSegment(out, segStart, p);
        return p > 1 ? p - 1 : p;
    }

    /** Closes the segment {@code out[segStart, p)}: drops it if empty or {@code .}, pops one if {@code ..}. */
    private static int endSegment(byte[] out, int segStart, int p) {
        int len = p - segStart;
        if (len == 0) {
            return p;
        }
        if (len == 1 && out[segStart] == '.') {
            return segStart;
        }
        if (len == 2 && out[segStart] == '.' && out[segStart + 1] == '.') {
            if (segStart <= 1) {
                return 1;
            }
            int q = segStart - 2;
            while (out[q] != '/') {
                q--;
            }
            return q + 1;
        }
        if (p == out.length) {
            return p;
        }
        out[p] = '/';
        return p + 1;
    }

    private static int put(byte[] out, int p, int c, boolean foldCase) {
        out[p] = (byte) (foldCase && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        return p + 1;
    }

    private static int encode(byte[] out, int p, int b) {
        out[p] = '%';
        out[p + 1] = HEX[(b >>> 4) & 0xf];
        out[p + 2] = HEX[b & 0xf];
        return p + 3;
    }

    private static int encodeUtf8(byte[] out, int p, int cp) {
        if (cp < 0x800) {
            p = encode(out, p, 0xC0 | (cp >>> 6));
        } else if (cp < 0x10000) {
            p = encode(out, p, 0xE0 | (cp >>> 12));
            p = encode(out, p, 0x80 | ((cp >>> 6) & 0x3F));
        } else {
            p = encode(out, p, 0xF0 | (cp >>> 18));
            p = encode(out, p, 0x80 | ((cp >>> 12) & 0x3F));
            p = encode(out, p, 0x80 | ((cp >>> 6) & 0x3F));
        }
        return encode(out, p, 0x80 | (cp & 0x3F));
    }

    /** RFC 3986 §2.3. */
    static boolean isUnreserved(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    /** pchar of RFC 3986 §3.3 less pct-encoded: unreserved, sub-delims, ':' and '@'. */
    private static boolean isPathChar(int c) {
        if (isUnreserved(c)) {
            return true;
        }
        switch (c) {
            case '!': case '$': case '&': case '\'': case '(': case ')': case '*': case '+': case ',': case ';':
            case '=': case ':': case '@':
                return true;
            default:
                return false;
        }
    }

}
