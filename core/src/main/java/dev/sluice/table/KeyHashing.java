package dev.sluice.table;

/**
 * Seeded key hashing. Each table draws a random seed, so callers cannot craft keys that share a probe chain.
 *
 * <p>A {@code long} key is mixed by a bijection of the 64-bit space: xor with the seed, multiply by an odd number drawn
 * from the seed, fold the high half onto the low half; each step is invertible, so the mixed word identifies the key
 * exactly. Both the xor and the multiplier are secret, so how keys spread over slots cannot be predicted; one multiply
 * on the key's path (the multiplier's own does not wait for the key) keeps it short. A {@code CharSequence} key is
 * reduced to a fingerprint of two lanes: a seeded 64-bit hash of its characters (which also places it in the table),
 * and its {@code String.hashCode()} and length (a second seeded hash for other sequences). Two distinct keys share
 * state only if both lanes collide: for n random keys the chance that any pair does is about n^2 / 2^97 (below 10^-15
 * for ten million keys); a caller who cannot see the seed cannot craft a collision of the seeded lane.
 */
public final class KeyHashing {

    private static final long M1 = 0x9E3779B97F4A7C15L;
    private static final long M2 = 0xC2B2AE3D27D4EB4FL;

    private KeyHashing() {
    }

    /** A bijective, seeded mix of a 64-bit key. */
    public static long mixLong(long key, long seed) {
        long x = (key ^ seed) * (seed * M2 | 1);
        return x ^ (x >>> 32);
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

    /** First lane of the fingerprint of {@code key}, seeded; never 0 or 1 (they mark empty slots and tombstones). */
    public static long fingerprintHigh(CharSequence key, long seed) {
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
        long f = fmix64(h);
        return f == 0 || f == 1 ? 2 : f;
    }

    /**
     * Second lane of the fingerprint: for a {@link String}, its cached {@code hashCode()} and length, mixed with the
     * seed (free after the string's first use); for another {@code CharSequence}, a second seeded pass.
     */
    public static long fingerprintLow(CharSequence key, long seed) {
        if (key instanceof String) {
            return fmix64((((long) key.hashCode()) << 32 | key.length()) ^ ~seed);
        }
        int n = key.length();
        long h = ~seed ^ (n * M2);
        for (int i = 0; i < n; i++) {
            h = Long.rotateLeft((h + key.charAt(i)) * M2, 31);
        }
        return fmix64(h);
    }

    /** Folds a second part into a fingerprint lane, for keys made of two parts (user, api) with no concatenation. */
    public static long combine(long first, long second) {
        return fmix64(first * M1 + Long.rotateLeft(second, 17));
    }
}
