package dev.sluice.reference;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The oracle's key for bytes from the wire: the {@link String} whose UTF-8 encoding they are (an unpaired surrogate
 * encoded as the three bytes of its own value, a pair as the four of its code point), or, for bytes that encode no
 * char sequence, a read-only copy of the bytes, which equals no String. Written plainly and separately from the
 * engine's hashing: decode, encode back, and keep the String only if the bytes come back unchanged.
 */
final class WireKey {

    private WireKey() {
    }

    static Object of(byte[] bytes, int offset, int length) {
        byte[] copy = new byte[length];
        System.arraycopy(bytes, offset, copy, 0, length);
        String decoded = decode(copy);
        if (decoded != null && Arrays.equals(encode(decoded), copy)) {
            return decoded;
        }
        return ByteBuffer.wrap(copy).asReadOnlyBuffer();
    }

    /** Best-effort decoding by code point; null where no code point fits. */
    private static String decode(byte[] b) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < b.length) {
            int lead = b[i] & 0xFF;
            int extra = lead < 0x80 ? 0 : lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : -1;
            if (extra < 0 || i + extra >= b.length) {
                return null;
            }
            int cp = extra == 0 ? lead : lead & (0x3F >> extra);
            for (int j = 1; j <= extra; j++) {
                int cont = b[i + j] & 0xFF;
                if ((cont & 0xC0) != 0x80) {
                    return null;
                }
                cp = cp << 6 | cont & 0x3F;
            }
            if (cp > Character.MAX_CODE_POINT) {
                return null;
            }
            out.appendCodePoint(cp);
            i += extra + 1;
        }
        return out.toString();
    }

    /** The encoding the engine documents, char by char. */
    static byte[] encode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int cp = c;
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                cp = Character.toCodePoint(c, s.charAt(++i));
            }
            if (cp < 0x80) {
                out.write(cp);
            } else if (cp < 0x800) {
                out.write(0xC0 | cp >> 6);
                out.write(0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                out.write(0xE0 | cp >> 12);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            } else {
                out.write(0xF0 | cp >> 18);
                out.write(0x80 | cp >> 12 & 0x3F);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            }
        }
        return out.toByteArray();
    }
}
