package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The long-key mix is a bijection (so a long key's keyword identifies it exactly) and depends on the seed; string
 * keys' lanes come from the keyed PRF, drawn per table.
 */
class KeyHashingTest {

    private static final long M2 = 0xC2B2AE3D27D4EB4FL;

    @Test
    void mixLongIsInvertedExactlyForEverySeed() {
        SplittableRandom random = new SplittableRandom(42);
        for (int s = 0; s < 200; s++) {
            long seed = random.nextLong();
            long inverse = inverseOfOdd(seed * M2 | 1);
            for (int i = 0; i < 2_000; i++) {
                long key = i < 1_000 ? i - 500 : random.nextLong();
                long x = KeyHashing.mixLong(key, seed);
                // x ^ (x >>> 32) undoes itself; then the odd multiplier's inverse mod 2^64; then the xor.
                long back = ((x ^ (x >>> 32)) * inverse) ^ seed;
                assertEquals(key, back, "seed " + seed);
            }
        }
    }

    @Test
    void sequentialKeysSpreadOverHomesAndStripesAndTheSpreadDependsOnTheSeed() {
        long seedA = 0x1234_5678_9ABC_DEF0L;
        long seedB = seedA + 1;
        Set<Long> homesA = new HashSet<>();
        Set<Integer> stripes = new HashSet<>();
        int sameHome = 0;
        for (long key = 0; key < 4096; key++) {
            long a = KeyHashing.mixLong(key, seedA);
            long b = KeyHashing.mixLong(key, seedB);
            homesA.add((a & 0xFFFF_FFFFL) * 8192 >>> 32);
            stripes.add((int) (a >>> 48) & 63);
            sameHome += ((a & 0xFFFF_FFFFL) * 8192 >>> 32) == ((b & 0xFFFF_FFFFL) * 8192 >>> 32) ? 1 : 0;
        }
        // 4096 keys into 8192 homes at random fill about 8192 * (1 - e^-0.5) = 3223; every one of 64 stripes is hit.
        assertTrue(homesA.size() > 3000, "homes used: " + homesA.size());
        assertEquals(64, stripes.size());
        assertTrue(sameHome < 20, "keys keeping their home across seeds: " + sameHome);
        assertNotEquals(KeyHashing.mixLong(7, seedA), KeyHashing.mixLong(7, seedB));
    }

    @Test
    void bothLanesOfAStringKeyChangeUnderTheBlockDifferentialThatCancelledInTheUnkeyedHash() {
        // Top bit of char 3 of a 4-char block and bit 12 of char 1 of the next (bits 63 and 28 of two 64-bit blocks).
        SplittableRandom random = new SplittableRandom(2863);
        for (int run = 0; run < 2000; run++) {
            KeyHashing hashing = KeyHashing.draw();
            char[] chars = new char[84];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) ('0' + random.nextInt(75));
            }
            SipHasher a = hash(hashing, new String(chars));
            int block = random.nextInt(20) * 4;
            chars[block + 3] ^= 0x8000;
            chars[block + 5] ^= 0x1000;
            SipHasher b = hash(hashing, new String(chars));
            assertNotEquals(a.first(), b.first());
            assertNotEquals(a.second(), b.second());
        }
    }

    @Test
    void aPairAndTheStringOfItsJoinedBytesAreDifferentKeys() {
        KeyHashing hashing = KeyHashing.of(1, 2, 3, 4, 5);
        SipHasher single = hash(hashing, "\0\0\0\0x");
        SipHasher pair = hashing.pairKey();
        pair.putInt(0);
        pair.putUtf8("");
        pair.putUtf8("x");
        pair.finish();
        assertNotEquals(single.first(), pair.first());
    }

    @Test
    void tablesDrawTheirOwnKeys() {
        Set<Long> keywords = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            keywords.add(hash(KeyHashing.draw(), "same key").first());
        }
        assertEquals(100, keywords.size());
    }

    private static SipHasher hash(KeyHashing hashing, String key) {
        SipHasher h = hashing.stringKey();
        h.putUtf8(key);
        h.finish();
        return h;
    }

    /** Newton's iteration for the inverse of an odd number mod 2^64 (each step doubles the correct bits). */
    private static long inverseOfOdd(long a) {
        long x = a;
        for (int i = 0; i < 5; i++) {
            x *= 2 - a * x;
        }
        assertEquals(1L, a * x);
        return x;
    }
}
