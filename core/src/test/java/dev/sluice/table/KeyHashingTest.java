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
    private static final long M3 = 0xD6E8_FEB8_6659_FD93L;

    @Test
    void mixLongIsInvertedExactlyForEverySeed() {
        SplittableRandom random = new SplittableRandom(42);
        for (int s = 0; s < 200; s++) {
            long seed = random.nextLong();
            long inverse = inverseOfOdd(seed * M2 | 1);
            long inverseM3 = inverseOfOdd(M3);
            for (int i = 0; i < 2_000; i++) {
                long key = i < 1_000 ? i - 500 : random.nextLong();
                long x = KeyHashing.mixLong(key, seed);
                // x ^ (x >>> 32) undoes itself; then each odd multiplier's inverse mod 2^64, last first; then the xor.
                long y = (x ^ (x >>> 32)) * inverseM3;
                long back = ((y ^ (y >>> 32)) * inverse) ^ seed;
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

    /**
     * Consecutive keys, put by linear probing from their first home into a table at the string tables' load at
     * capacity (4,096 keys in 5,461 slots), never run past the second window for any of 1,000 seeds. With one round of
     * multiply and fold, about one seed in 40 made a lattice of homes whose runs passed 256 slots; random homes reach
     * past 64 slots in about half the seeds and past 256 in none.
     */
    @Test
    void consecutiveKeysNeverPileIntoARunLongerThanTheSecondWindowWhateverTheSeed() {
        SplittableRandom random = new SplittableRandom(7);
        int slots = 5461;
        for (int s = 0; s < 1_000; s++) {
            long seed = random.nextLong();
            boolean[] used = new boolean[slots];
            int longest = 0;
            for (long key = 0; key < 4096; key++) {
                int home = (int) (((KeyHashing.mixLong(key, seed) & 0xFFFF_FFFFL) * slots) >>> 32);
                int d = 0;
                while (used[(home + d) % slots]) {
                    d++;
                }
                used[(home + d) % slots] = true;
                longest = Math.max(longest, d);
            }
            assertTrue(longest < KeyTable.SECOND_WINDOW, "seed " + seed + ": a key " + longest + " slots from home");
        }
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
