package dev.sluice.jcstress.keycache;

import dev.sluice.table.Fingerprint;
import dev.sluice.table.FingerprintCache;

/**
 * What a reader of a key cache saw for one key, as a result code: a miss, exactly the key's own fingerprint, exactly
 * another key's, or words of neither.
 */
public final class KeyCacheReads {

    /** The entry did not answer for the key. */
    public static final int MISS = 0;
    /** The key's own fingerprint. */
    public static final int OWN = 1;
    /** The fingerprint of the other key that shares the entry. */
    public static final int OTHER = 2;
    /** Words that are neither key's pair: a torn entry. */
    public static final int TORN = 3;

    /** Two keys with equal {@code hashCode()}, so they share one entry of any cache. */
    public static final String A = "Aa";
    public static final String B = "BB";
    public static final long A_KEYWORD = 0xA1A1A1A1L;
    public static final long A_CHECK = 0xA2A2A2A2L;
    public static final long B_KEYWORD = 0xB1B1B1B1L;
    public static final long B_CHECK = 0xB2B2B2B2L;

    private KeyCacheReads() {
    }

    /**
     * The result code of a lookup: {@code hit} and the words it left, against the key's own words and the other
     * key's.
     */
    public static int code(boolean hit, long keyword, long check, long ownKeyword, long ownCheck, long otherKeyword,
            long otherCheck) {
        if (!hit) {
            return MISS;
        }
        if (keyword == ownKeyword && check == ownCheck) {
            return OWN;
        }
        return keyword == otherKeyword && check == otherCheck ? OTHER : TORN;
    }

    /**
     * Which of A and B a quiescent single-key cache holds, each with its own words: 1 for A alone, 2 for B alone, and
     * {@code 100 + 10 * codeOfA + codeOfB} for anything else.
     */
    public static int holder(FingerprintCache cache) {
        Fingerprint f = new Fingerprint();
        int a = code(cache.find(A, f), f.keyword(), f.check(), A_KEYWORD, A_CHECK, B_KEYWORD, B_CHECK);
        f = new Fingerprint();
        int b = code(cache.find(B, f), f.keyword(), f.check(), B_KEYWORD, B_CHECK, A_KEYWORD, A_CHECK);
        if (a == OWN && b == MISS) {
            return 1;
        }
        return a == MISS && b == OWN ? 2 : 100 + 10 * a + b;
    }
}
