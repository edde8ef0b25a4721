package dev.sluice.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * SipHash with a 128-bit output, fed as a stream: the keyed pseudorandom function of J.-P. Aumasson and
 * D. J. Bernstein, "SipHash: a fast short-input PRF", INDOCRYPT 2012, with the 128-bit output mode of their
 * reference implementation ({@code v1 ^= 0xee} at initialisation, {@code v2 ^= 0xee} and {@code v1 ^= 0xdd} before
 * the two finalisations).
 *
 * <p>Round counts: {@link #sip13} (one compression round per 8-byte word, three finalisation rounds) for the table's
 * key identity and placement, where a key's hash is never shown to a caller and only a table's behaviour can leak
 * anything about it; the construction and its margin are the paper's, with fewer rounds, the variant hash tables of
 * several language runtimes use for the same purpose. {@link #sip24}, the paper's recommended variant, shares every
 * step but the round counts, so the published SipHash-2-4 test vectors check the padding, the word order and the
 * finalisation of both.
 *
 * <p>One instance hashes one message: make one per key (it is small enough that the JIT keeps it in registers when
 * the caller is compiled with it; the engine's key paths measure 0 B/op). Not thread-safe. Bytes are absorbed
 * little-endian, eight to a word, as the reference does; {@link #finish()} computes both lanes.
 */
public final class SipHasher {

    private static final VarHandle ARRAY_WORD =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUFFER_WORD =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int compressionRounds;
    private final int finalRounds;
    private long v0;
    private long v1;
    private long v2;
    private long v3;
    /** Bytes absorbed but not yet compressed, little-endian: byte {@code i} of the pending word at bits 8i. */
    private long pending;
    /** Bytes absorbed so far; its low three bits say how many are pending. */
    private long count;
    private long first;
    private long second;

    private SipHasher(long k0, long k1, int compressionRounds, int finalRounds) {
        this.compressionRounds = compressionRounds;
        this.finalRounds = finalRounds;
        v0 = k0 ^ 0x736f6d6570736575L;
        v1 = k1 ^ 0x646f72616e646f6dL ^ 0xee;
        v2 = k0 ^ 0x6c7967656e657261L;
        v3 = k1 ^ 0x7465646279746573L;
    }

    /** SipHash-1-3-128 keyed by {@code (k0, k1)}: the key's bytes 0-7 and 8-15, read little-endian. */
    public static SipHasher sip13(long k0, long k1) {
        return new SipHasher(k0, k1, 1, 3);
    }

    /** SipHash-2-4-128 keyed by {@code (k0, k1)}. */
    public static SipHasher sip24(long k0, long k1) {
        return new SipHasher(k0, k1, 2, 4);
    }

    /** Absorbs one byte (the low 8 bits of {@code b}). */
    public void putByte(int b) {
        int at = (int) count & 7;
        pending |= (b & 0xFFL) << (at << 3);
        count++;
        if (at == 7) {
            compress(pending);
            pending = 0;
        }
    }

    /** Absorbs an {@code int} as four bytes, little-endian. */
    public void putInt(int v) {
        putByte(v);
        putByte(v >>> 8);
        putByte(v >>> 16);
        putByte(v >>> 24);
    }

    /** Absorbs {@code length} bytes of {@code bytes} from {@code offset}; the caller has checked the range. */
    public void putBytes(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end && (count & 7) != 0) {
            putByte(bytes[i++]);
        }
        for (; i + 8 <= end; i += 8) {
            compress((long) ARRAY_WORD.get(bytes, i));
            count += 8;
        }
        while (i < end) {
            putByte(bytes[i++]);
        }
    }

    /**
     * Absorbs the bytes of {@code buffer} at the absolute indices {@code [from, to)}, heap or direct, whatever the
     * buffer's byte order; its position, limit and mark are left unchanged. The caller has checked the range.
     */
    public void putBytes(ByteBuffer buffer, int from, int to) {
        int i = from;
        while (i < to && (count & 7) != 0) {
            putByte(buffer.get(i++));
        }
        for (; i + 8 <= to; i += 8) {
            compress((long) BUFFER_WORD.get(buffer, i));
            count += 8;
        }
        while (i < to) {
            putByte(buffer.get(i++));
        }
    }

    /**
     * Absorbs the UTF-8 encoding of {@code chars}: a surrogate pair as the four bytes of its code point, any other
     * char (an unpaired surrogate included) as the one to three bytes of its own value, as the generalised UTF-8
     * known as WTF-8 does. The encoding is one-to-one, so distinct sequences give distinct byte streams, and a
     * sequence with no unpaired surrogate gives exactly the bytes of {@code String.getBytes(UTF_8)}.
     */
    public void putUtf8(CharSequence chars) {
        int n = chars.length();
        int i = 0;
        while (i < n) {
            if ((count & 7) == 0 && i + 8 <= n) {
                long word = asciiWord(chars, i);
                if (word >= 0) {
                    compress(word);
                    count += 8;
                    i += 8;
                    continue;
                }
            }
            i = putChar(chars, i, n);
        }
    }

    /** Eight chars as one little-endian word if all are ASCII, else -1 (an ASCII word's top bit is clear). */
    private static long asciiWord(CharSequence chars, int i) {
        long word = 0;
        int all = 0;
        for (int j = 7; j >= 0; j--) {
            char c = chars.charAt(i + j);
            all |= c;
            word = word << 8 | c;
        }
        return all < 0x80 ? word : -1;
    }

    /** Absorbs the char (or surrogate pair) at {@code i}; returns the index after it. */
    private int putChar(CharSequence chars, int i, int n) {
        char c = chars.charAt(i);
        if (c < 0x80) {
            putByte(c);
        } else if (c < 0x800) {
            putByte(0xC0 | c >>> 6);
            putByte(0x80 | c & 0x3F);
        } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(chars.charAt(i + 1))) {
            int cp = Character.toCodePoint(c, chars.charAt(i + 1));
            putByte(0xF0 | cp >>> 18);
            putByte(0x80 | cp >>> 12 & 0x3F);
            putByte(0x80 | cp >>> 6 & 0x3F);
            putByte(0x80 | cp & 0x3F);
            return i + 2;
        } else {
            putByte(0xE0 | c >>> 12);
            putByte(0x80 | c >>> 6 & 0x3F);
            putByte(0x80 | c & 0x3F);
        }
        return i + 1;
    }

    /** Ends the message: pads with the length byte and computes both 64-bit lanes. */
    public void finish() {
        compress(pending | count << 56);
        v2 ^= 0xee;
        rounds(finalRounds);
        first = v0 ^ v1 ^ v2 ^ v3;
        v1 ^= 0xdd;
        rounds(finalRounds);
        second = v0 ^ v1 ^ v2 ^ v3;
    }

    /** Output bytes 0-7 (little-endian) of the 128-bit tag; after {@link #finish()}. */
    public long first() {
        return first;
    }

    /** Output bytes 8-15 (little-endian) of the 128-bit tag; after {@link #finish()}. */
    public long second() {
        return second;
    }

    private void compress(long m) {
        v3 ^= m;
        rounds(compressionRounds);
        v0 ^= m;
    }

    private void rounds(int n) {
        long a = v0;
        long b = v1;
        long c = v2;
        long d = v3;
        for (int r = 0; r < n; r++) {
            a += b;
            b = Long.rotateLeft(b, 13) ^ a;
            a = Long.rotateLeft(a, 32);
            c += d;
            d = Long.rotateLeft(d, 16) ^ c;
            a += d;
            d = Long.rotateLeft(d, 21) ^ a;
            c += b;
            b = Long.rotateLeft(b, 17) ^ c;
            c = Long.rotateLeft(c, 32);
        }
        v0 = a;
        v1 = b;
        v2 = c;
        v3 = d;
    }
}
