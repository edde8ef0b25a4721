package dev.sluice.table;

import java.security.SecureRandom;

/**
 * A table's key hashing: the secret keys it draws once, when it is built, and how each kind of key becomes a
 * keyword (which places the key and names it) and a check word (which, with the keyword, names it).
 *
 * <p>A {@code long} key is mixed by a bijection of the 64-bit space, {@link #mixLong(long, long)}: xor with a seed,
 * multiply by an odd number drawn from it, fold the high half onto the low half, multiply by a fixed odd constant and
 * fold again; each step is invertible, so the keyword identifies the key exactly and no check word is needed. One
 * multiply and fold is not enough: for about one seed in 40, 4,096 consecutive keys then fall on homes in a lattice
 * that piles them into probe runs longer than 256 slots (KeyHashingTest); the second round spreads them as random
 * homes would.
 *
 * <p>A string key (a {@code CharSequence}, or bytes from the wire) is named by the 128-bit output of SipHash-1-3
 * ({@link SipHasher}) over its bytes, keyed with 128 bits from {@link SecureRandom}: the first 64-bit lane is the
 * keyword (0 and 1, which mark empty slots and tombstones, become 2), the second the check (0, the check of every
 * long key, becomes 1). A char sequence's bytes
 * are its UTF-8 encoding ({@link SipHasher#putUtf8}), so bytes and the string they spell in UTF-8 are one key.
 * A two-part key {@code (first, second)} hashes, under a second independent 128-bit key, the first part's length in
 * chars (four bytes) and then both parts' UTF-8: the length makes the split unambiguous, the separate key keeps pairs
 * apart from single strings. Two distinct string keys share state only if both lanes agree: for a PRF, whatever the
 * keys (chosen by a caller who cannot see the secret key), about n^2 / 2^129 for n keys (the few merged values of each
 * lane add a negligible 2^-63 per pair of keys).
 */
public final class KeyHashing {

    private static final long M2 = 0xC2B2AE3D27D4EB4FL;
    /** A second odd multiplier, unrelated to the one of the second home in KeyTable. */
    private static final long M3 = 0xD6E8_FEB8_6659_FD93L;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final long longSeed;
    private final long k0;
    private final long k1;
    private final long pairK0;
    private final long pairK1;

    private KeyHashing(long longSeed, long k0, long k1, long pairK0, long pairK1) {
        this.longSeed = longSeed;
        this.k0 = k0;
        this.k1 = k1;
        this.pairK0 = pairK0;
        this.pairK1 = pairK1;
    }

    /** Fresh secret keys from {@link SecureRandom}: call when a table is built, never on a request. */
    public static KeyHashing draw() {
        return new KeyHashing(RANDOM.nextLong(), RANDOM.nextLong(), RANDOM.nextLong(), RANDOM.nextLong(),
                RANDOM.nextLong());
    }

    /** Fixed keys, for tests that need two tables to agree. */
    public static KeyHashing of(long longSeed, long k0, long k1, long pairK0, long pairK1) {
        return new KeyHashing(longSeed, k0, k1, pairK0, pairK1);
    }

    /** The seed of {@link #mixLong(long)}. */
    public long longSeed() {
        return longSeed;
    }

    /** A long key's keyword: exact, see the class comment. */
    public long mixLong(long key) {
        return mixLong(key, longSeed);
    }

    /** A hasher for one string key (a char sequence or its UTF-8 bytes). */
    public SipHasher stringKey() {
        return SipHasher.sip13(k0, k1);
    }

    /** A hasher for one two-part key; absorb the first part's length in chars, then both parts. */
    public SipHasher pairKey() {
        return SipHasher.sip13(pairK0, pairK1);
    }

    /** The keyword of a finished string hash: its first lane, never 0 or 1 (they mark empty slots and tombstones). */
    public static long keyword(SipHasher finished) {
        long k = finished.first();
        return k == 0 || k == 1 ? 2 : k;
    }

    /**
     * The check of a finished string hash: its second lane, never 0, which is the check of every long key, so that no
     * string key can be a long key in a table that holds both.
     */
    public static long check(SipHasher finished) {
        long c = finished.second();
        return c == 0 ? 1 : c;
    }

    /** A bijective, seeded mix of a 64-bit key. */
    public static long mixLong(long key, long seed) {
        long x = (key ^ seed) * (seed * M2 | 1);
        x = (x ^ (x >>> 32)) * M3;
        return x ^ (x >>> 32);
    }
}
