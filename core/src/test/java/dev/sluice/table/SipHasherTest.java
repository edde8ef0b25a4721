package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SipHash-128 against the reference implementation's published vectors, through every way of feeding it, and the
 * statistical properties a keyed hash must show: avalanche on one- and two-bit input changes, and outputs under
 * different keys that bear no fixed relation. All randomness is from fixed seeds, so the bounds are checked on the
 * same sample every run; each bound is several standard deviations wide.
 */
class SipHasherTest {

    /** The key 00 01 .. 0f, read little-endian. */
    private static final long K0 = 0x0706050403020100L;
    private static final long K1 = 0x0F0E0D0C0B0A0908L;

    @Test
    void sip24MatchesTheReferenceVectorsForEveryLengthFromZeroTo63() throws IOException {
        List<byte[]> vectors = vectors();
        assertEquals(64, vectors.size());
        byte[] message = new byte[64];
        for (int i = 0; i < 64; i++) {
            message[i] = (byte) i;
        }
        for (int n = 0; n < 64; n++) {
            byte[] expected = vectors.get(n);
            SipHasher whole = SipHasher.sip24(K0, K1);
            whole.putBytes(message, 0, n);
            assertTag(expected, whole, "byte[] of length " + n);

            SipHasher oneByOne = SipHasher.sip24(K0, K1);
            for (int i = 0; i < n; i++) {
                oneByOne.putByte(message[i]);
            }
            assertTag(expected, oneByOne, "byte by byte, length " + n);

            // Split at every point: the stream, not the calls, decides the hash.
            for (int split = 0; split <= n; split++) {
                SipHasher parts = SipHasher.sip24(K0, K1);
                parts.putBytes(message, 0, split);
                parts.putBytes(message, split, n - split);
                assertTag(expected, parts, "split at " + split + ", length " + n);
            }

            ByteBuffer direct = ByteBuffer.allocateDirect(n + 3).order(ByteOrder.BIG_ENDIAN);
            direct.position(3);
            direct.put(message, 0, n);
            SipHasher fromDirect = SipHasher.sip24(K0, K1);
            fromDirect.putBytes(direct, 3, 3 + n);
            assertTag(expected, fromDirect, "direct buffer, length " + n);

            // Bytes 00..3f are ASCII, so the chars with those values encode to exactly the message.
            StringBuilder chars = new StringBuilder();
            for (int i = 0; i < n; i++) {
                chars.append((char) i);
            }
            SipHasher fromChars = SipHasher.sip24(K0, K1);
            fromChars.putUtf8(chars);
            assertTag(expected, fromChars, "chars, length " + n);
        }
    }

    @Test
    void charsHashAsTheirUtf8BytesIncludingSurrogatePairsAndOddAlignments() {
        String[] samples = {"", "a", "user42|api7", "ÿé€", "naïve café 東京 \uD83D\uDE00 end",
            "0123456789abcdef\u00e9xyz", "\uD83D\uDE00\uD83D\uDE01\uD83D\uDE02 x", "12345678901234567é90"};
        for (String s : samples) {
            for (int prefix = 0; prefix < 8; prefix++) {
                SipHasher a = SipHasher.sip13(K0, K1);
                SipHasher b = SipHasher.sip13(K0, K1);
                for (int i = 0; i < prefix; i++) {
                    a.putByte('p');
                    b.putByte('p');
                }
                a.putUtf8(s);
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                b.putBytes(utf8, 0, utf8.length);
                a.finish();
                b.finish();
                assertEquals(b.first(), a.first(), s);
                assertEquals(b.second(), a.second(), s);
            }
        }
    }

    @Test
    void anUnpairedSurrogateHashesAsTheThreeBytesOfItsValueAndDiffersFromTheReplacementChar() {
        SipHasher lone = SipHasher.sip13(K0, K1);
        lone.putUtf8("a\uD800b");
        lone.finish();
        SipHasher bytes = SipHasher.sip13(K0, K1);
        bytes.putBytes(new byte[] {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80, 'b'}, 0, 5);
        bytes.finish();
        assertEquals(bytes.first(), lone.first());
        assertEquals(bytes.second(), lone.second());
        SipHasher replaced = SipHasher.sip13(K0, K1);
        replaced.putUtf8("a\uFFFDb");
        replaced.finish();
        assertNotEquals(replaced.first(), lone.first());
    }

    @Test
    void flippingAnyOneInputBitFlipsEachOutputBitWithProbabilityNearOneHalf() {
        SplittableRandom random = new SplittableRandom(0xA7A1_A4C3L);
        for (int length : new int[] {1, 8, 11, 16, 33}) {
            int inputBits = length * 8;
            int trials = 600;
            int[][] flips = new int[inputBits][128];
            for (int t = 0; t < trials; t++) {
                long k0 = random.nextLong();
                long k1 = random.nextLong();
                byte[] message = randomBytes(random, length);
                long[] base = sip13(k0, k1, message);
                for (int bit = 0; bit < inputBits; bit++) {
                    message[bit >>> 3] ^= (byte) (1 << (bit & 7));
                    long[] changed = sip13(k0, k1, message);
                    message[bit >>> 3] ^= (byte) (1 << (bit & 7));
                    count(flips[bit], base, changed);
                }
            }
            // Each cell is Binomial(600, 1/2): sd 12.2; 0.5 +- 0.12 is 5.9 sd, for at most 33 * 8 * 128 cells.
            for (int bit = 0; bit < inputBits; bit++) {
                for (int out = 0; out < 128; out++) {
                    double p = flips[bit][out] / (double) trials;
                    assertTrue(Math.abs(p - 0.5) < 0.12,
                            "length " + length + ", input bit " + bit + ", output bit " + out + ": " + p);
                }
            }
        }
    }

    @Test
    void flippingAnyTwoInputBitsChangesAboutHalfOfEachLane() {
        SplittableRandom random = new SplittableRandom(0x2B17_5EEDL);
        for (int length : new int[] {2, 8, 16, 64}) {
            int inputBits = length * 8;
            for (int pair = 0; pair < 400; pair++) {
                int a = random.nextInt(inputBits);
                int b = (a + 1 + random.nextInt(inputBits - 1)) % inputBits;
                long sumFirst = 0;
                long sumSecond = 0;
                int trials = 200;
                for (int t = 0; t < trials; t++) {
                    long k0 = random.nextLong();
                    long k1 = random.nextLong();
                    byte[] message = randomBytes(random, length);
                    long[] base = sip13(k0, k1, message);
                    message[a >>> 3] ^= (byte) (1 << (a & 7));
                    message[b >>> 3] ^= (byte) (1 << (b & 7));
                    long[] changed = sip13(k0, k1, message);
                    sumFirst += Long.bitCount(base[0] ^ changed[0]);
                    sumSecond += Long.bitCount(base[1] ^ changed[1]);
                }
                // Mean of 200 Binomial(64, 1/2): 32, sd 0.28; +-2 is 7 sd.
                double first = sumFirst / (double) trials;
                double second = sumSecond / (double) trials;
                assertTrue(Math.abs(first - 32) < 2, "bits " + a + "," + b + ": first lane " + first);
                assertTrue(Math.abs(second - 32) < 2, "bits " + a + "," + b + ": second lane " + second);
            }
        }
    }

    @Test
    void theDifferenceOfTwoMessagesHashesIsDifferentUnderEveryKey() {
        // Under an unkeyed or weakly keyed hash, a fixed input difference often gives a fixed output difference.
        SplittableRandom random = new SplittableRandom(0xD1FFL);
        byte[] m1 = randomBytes(random, 24);
        byte[] m2 = m1.clone();
        m2[7] ^= (byte) 0x80;
        m2[10] ^= 0x10;
        Set<Long> differences = new HashSet<>();
        for (int k = 0; k < 2000; k++) {
            long k0 = random.nextLong();
            long k1 = random.nextLong();
            long[] a = sip13(k0, k1, m1);
            long[] b = sip13(k0, k1, m2);
            assertTrue(differences.add(a[0] ^ b[0]), "a repeated first-lane difference");
        }
    }

    @Test
    void flippingOneKeyBitChangesAboutHalfOfEachLane() {
        SplittableRandom random = new SplittableRandom(0x7E7EL);
        byte[] message = randomBytes(random, 11);
        for (int keyBit = 0; keyBit < 128; keyBit++) {
            long sum = 0;
            int trials = 200;
            for (int t = 0; t < trials; t++) {
                long k0 = random.nextLong();
                long k1 = random.nextLong();
                long[] base = sip13(k0, k1, message);
                long[] other = keyBit < 64 ? sip13(k0 ^ 1L << keyBit, k1, message)
                        : sip13(k0, k1 ^ 1L << (keyBit - 64), message);
                sum += Long.bitCount(base[0] ^ other[0]) + Long.bitCount(base[1] ^ other[1]);
            }
            double mean = sum / (double) trials;
            assertTrue(Math.abs(mean - 64) < 3, "key bit " + keyBit + ": " + mean);
        }
    }

    private static void count(int[] cells, long[] base, long[] changed) {
        long d0 = base[0] ^ changed[0];
        long d1 = base[1] ^ changed[1];
        for (int i = 0; i < 64; i++) {
            cells[i] += (int) (d0 >>> i) & 1;
            cells[64 + i] += (int) (d1 >>> i) & 1;
        }
    }

    private static long[] sip13(long k0, long k1, byte[] message) {
        SipHasher h = SipHasher.sip13(k0, k1);
        h.putBytes(message, 0, message.length);
        h.finish();
        return new long[] {h.first(), h.second()};
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }

    private static void assertTag(byte[] expected, SipHasher h, String what) {
        h.finish();
        ByteBuffer tag = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        tag.putLong(h.first()).putLong(h.second());
        assertEquals(hex(expected), hex(tag.array()), what);
    }

    private static List<byte[]> vectors() throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                SipHasherTest.class.getResourceAsStream("siphash24-128.txt"), StandardCharsets.US_ASCII))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                byte[] b = new byte[line.length() / 2];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) Integer.parseInt(line.substring(2 * i, 2 * i + 2), 16);
                }
                out.add(b);
            }
        }
        return out;
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }
}
