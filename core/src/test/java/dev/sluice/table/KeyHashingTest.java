package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The long-key mix is a bijection (so a long key's keyword identifies it exactly) and depends on the seed. */
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
