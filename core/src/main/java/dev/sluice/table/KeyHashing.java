package dev.sluice.table;

/**
 * Seeded key hashing. Each table draws a random seed, so callers cannot craft keys that share a probe chain.
 *
 * <p>A {@code long} key is mixed by a bijection of the 64-bit space (xor with the seed, then the MurmurHash3
 * finaliser, whose steps are all invertible): the mixed word identifies the key exactly. A {@code CharSequence} key
 * is reduced to a 128-bit fingerprint (two 64-bit lanes with independent seeds, finalised the same way). Two
 * distinct strings share state only if both lanes collide: for n keys the chance that any pair does is about
 * n^2 / 2^129 (below 10^-24 for ten million keys).
 */
public final class KeyHashing {

    private static final long M1 = 0x9E3779B97F4A7C15L;
    private static final long M2 = 0xC2B2AE3D27D4EB4FL;

    private KeyHashing() {
    }

    /** A bijective, seeded mix of a 64-bit key. */
    public static long mixLong(long key, long seed) {
        return fmix64(key ^ seed);
    }

    /** The MurmurHash3 64-bit finaliser: a bijection with full avalanche. */
    public static long fmix64(long x) {
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        x *= 0xC4CEB9FE1A85EC53L;
        x ^= x >>> 33;
        return x;
    }

    /** First lane of the fingerprint of {@code key}; never 0 or 1 (they mark empty slots and tombstones). */
    public static long fingerprintHigh(CharSequence key, long seed) {
        long h = seed ^ (key.length() * M1);
        int n = key.length();
        int i = 0;
        for (; i + 1 < n; i += 2) {
            h = (h ^ (key.charAt(i) | ((long) key.charAt(i + 1) << 16))) * M1;
            h = Long.rotateLeft(h, 29);
        }
        if (i < n) {
            h = (h ^ key.charAt(i)) * M1;
        }
        long f = fmix64(h);
        return f == 0 || f == 1 ? 2 : f;
    }

    /** Second, independently seeded lane of the fingerprint of {@code key}. */
    public static long fingerprintLow(CharSequence key, long seed) {
        long h = ~seed ^ (key.length() * M2);
        int n = key.length();
        int i = 0;
        for (; i + 1 < n; i += 2) {
            h = (h + (key.charAt(i) | ((long) key.charAt(i + 1) << 16))) * M2;
            h = Long.rotateLeft(h, 31);
        }
        if (i < n) {
            h = (h + key.charAt(i)) * M2;
        }
        return fmix64(h);
    }

    /** Folds a second part into a fingerprint lane, for keys made of two parts (user, api) with no concatenation. */
    public static long combine(long first, long second) {
        return fmix64(first * M1 + Long.rotateLeft(second, 17));
    }
}
