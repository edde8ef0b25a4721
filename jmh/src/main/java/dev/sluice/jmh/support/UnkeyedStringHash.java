package dev.sluice.jmh.support;

/**
 * The string-key fingerprint Sluice used before its keyed PRF (a seeded multiply-rotate over 4-char blocks, and the
 * string's {@code hashCode()} with its length), kept only to be measured beside the PRF. Its first lane's block
 * differential holds for every seed, so it is not safe against chosen keys.
 */
public final class UnkeyedStringHash {

    private static final long M1 = 0x9E3779B97F4A7C15L;

    private UnkeyedStringHash() {
    }

    /** Both lanes, folded into one word so that neither is dead code to the JIT. */
    public static long fingerprint(String key, long seed) {
        return high(key, seed) ^ low(key, seed);
    }

    private static long high(CharSequence key, long seed) {
        int n = key.length();
        long h = seed ^ (n * M1);
        int i = 0;
        for (; i + 3 < n; i += 4) {
            long v = key.charAt(i) | (long) key.charAt(i + 1) << 16 | (long) key.charAt(i + 2) << 32
                    | (long) key.charAt(i + 3) << 48;
            h = Long.rotateLeft((h ^ v) * M1, 29);
        }
        for (; i < n; i++) {
            h = Long.rotateLeft((h ^ key.charAt(i)) * M1, 29);
        }
        return fmix64(h);
    }

    private static long low(String key, long seed) {
        return fmix64((((long) key.hashCode()) << 32 | key.length()) ^ ~seed);
    }

    private static long fmix64(long x) {
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        x *= 0xC4CEB9FE1A85EC53L;
        x ^= x >>> 33;
        return x;
    }
}
