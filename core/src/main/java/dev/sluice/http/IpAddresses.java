package dev.sluice.http;

/**
 * IP address literals read and written without DNS and without allocation: {@link #parse} reads an IPv4
 * dotted quad or an IPv6 literal (RFC 4291 §2.2, with {@code ::}, an embedded dotted quad, optional brackets and an
 * optional zone id, which is ignored) from a range of characters into a caller's 16-byte array.
 *
 * <p>Only literals are accepted: a host name is never resolved, so a forwarded value such as
 * {@code for=example.com} cannot make the resolver block or reach the network.
 */
public final class IpAddresses {

    /** Returned by {@link #parse} for text that is not an address literal. */
    public static final int INVALID = -1;

    private IpAddresses() {
    }

    /** {@link #parse(CharSequence, int, int, byte[])} over the whole of {@code text}. */
    public static int parse(CharSequence text, byte[] out) {
        return parse(text, 0, text.length(), out);
    }

    /**
     * Reads the literal in {@code text[from, to)} into {@code out} (at least 16 bytes).
     *
     * @return 4 for IPv4, 16 for IPv6 (an IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d} gives 4, the address it
     *         maps, so that a dual-stack server keys a client the same way on both stacks), or {@link #INVALID}
     */
    public static int parse(CharSequence text, int from, int to, byte[] out) {
        if (to - from >= 2 && text.charAt(from) == '[' && text.charAt(to - 1) == ']') {
            from++;
            to--;
        }
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '%') {
                to = i;
                break;
            }
        }
        if (from >= to) {
            return INVALID;
        }
        boolean colon = false;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == ':') {
                colon = true;
                break;
            }
        }
        if (!colon) {
            return parseIpv4(text, from, to, out, 0) ? 4 : INVALID;
        }
        if (!parseIpv6(text, from, to, out)) {
            return INVALID;
        }
        if (isIpv4Mapped(out)) {
            System.arraycopy(out, 12, out, 0, 4);
            return 4;
        }
        return 16;
    }

    private static boolean isIpv4Mapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    private static boolean parseIpv4(CharSequence s, int from, int to, byte[] out, int at) {
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = from; i <= to; i++) {
            char c = i < to ? s.charAt(i) : '.';
            if (c == '.') {
                // A part is 1 to 3 digits, no leading zero (which some parsers read as octal), at most 255.
                if (digits == 0 || part > 3 || (digits > 1 && s.charAt(i - digits) == '0')) {
                    return false;
                }
                out[at + part++] = (byte) value;
                value = 0;
                digits = 0;
            } else if (c >= '0' && c <= '9' && digits < 3) {
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255) {
                    return false;
                }
            } else {
                return false;
            }
        }
        return part == 4;
    }

    private static boolean parseIpv6(CharSequence s, int from, int to, byte[] out) {
        int groups = 0;
        int gap = -1;
        int i = from;
        if (s.charAt(i) == ':') {
            if (to - i < 2 || s.charAt(i + 1) != ':') {
                return false;
            }
            gap = 0;
            i += 2;
        }
        while (i < to) {
            if (groups == 8) {
                return false;
            }
            int start = i;
            int value = 0;
            while (i < to && i - start < 5) {
                int h = hex(s.charAt(i));
                if (h < 0) {
                    break;
                }
                value = (value << 4) | h;
                i++;
            }
            if (i < to && s.charAt(i) == '.') {
                // An embedded dotted quad takes the last two groups.
                if (groups > 6 || !parseIpv4(s, start, to, out, groups * 2)) {
                    return false;
                }
                groups += 2;
                i = to;
                break;
            }
            int len = i - start;
            if (len == 0 || len > 4) {
                return false;
            }
            out[groups * 2] = (byte) (value >>> 8);
            out[groups * 2 + 1] = (byte) value;
            groups++;
            if (i == to) {
                break;
            }
            if (s.charAt(i) != ':') {
                return false;
            }
            i++;
            if (i < to && s.charAt(i) == ':') {
                if (gap >= 0) {
                    return false;
                }
                gap = groups;
                i++;
            } else if (i == to) {
                return false;
            }
        }
        if (gap < 0) {
            return groups == 8;
        }
        if (groups == 8) {
            return false;
        }
        int tail = groups - gap;
        System.arraycopy(out, gap * 2, out, 16 - tail * 2, tail * 2);
        for (int k = gap * 2; k < 16 - tail * 2; k++) {
            out[k] = 0;
        }
        return true;
    }

    /** The value of an ASCII hex digit, or -1 (no other script's digits: a key must not depend on them). */
    static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** Clears every bit of {@code address[0, length)} past the first {@code prefixBits}. */
    public static void mask(byte[] address, int length, int prefixBits) {
        for (int i = 0; i < length; i++) {
            int keep = prefixBits - i * 8;
            if (keep <= 0) {
                address[i] = 0;
            } else if (keep < 8) {
                address[i] &= (byte) (0xff << (8 - keep));
            }
        }
    }

    /**
     * The text form of a masked address with its prefix: {@code 203.0.113.0/24}, {@code 2001:db8:0:0:0:0:0:0/64}
     * (IPv6 groups in lower-case hex, uncompressed, so that one address has one text).
     */
    public static String format(byte[] address, int length, int prefixBits) {
        StringBuilder sb = new StringBuilder(length == 4 ? 18 : 44);
        if (length == 4) {
            for (int i = 0; i < 4; i++) {
                if (i > 0) {
                    sb.append('.');
                }
                sb.append(address[i] & 0xff);
            }
        } else {
            for (int i = 0; i < 16; i += 2) {
                if (i > 0) {
                    sb.append(':');
                }
                sb.append(Integer.toHexString(((address[i] & 0xff) << 8) | (address[i + 1] & 0xff)));
            }
        }
        return sb.append('/').append(prefixBits).toString();
    }
}
