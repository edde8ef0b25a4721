package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FingerprintCacheTest {

    private final FingerprintCache keys = FingerprintCache.ofKeys(1024);
    private final FingerprintCache pairs = FingerprintCache.ofPairs(1024);
    private final Fingerprint out = new Fingerprint();

    @Test
    void anEmptyCacheMissesAndLeavesTheOutputUntouched() {
        out.set(7, 8);
        assertFalse(keys.find("alice", out));
        assertEquals(7, out.keyword());
        assertEquals(8, out.check());
    }

    @Test
    void anOfferedKeyHitsWithExactlyItsFingerprint() {
        keys.offer("alice", 11, 12);
        assertTrue(keys.find("alice", out));
        assertEquals(11, out.keyword());
        assertEquals(12, out.check());
    }

    @Test
    void aFreshStringEqualInContentHits() {
        keys.offer("user42|api7", 21, 22);
        assertTrue(keys.find(new String("user42|api7".toCharArray()), out));
        assertEquals(21, out.keyword());
    }

    @Test
    void aKeyWithTheSameHashCodeButOtherCharsMissesAndThenReplacesTheEntry() {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        keys.offer("Aa", 31, 32);
        assertFalse(keys.find("BB", out));
        keys.offer("BB", 41, 42);
        assertFalse(keys.find("Aa", out));
        assertTrue(keys.find("BB", out));
        assertEquals(41, out.keyword());
        assertEquals(42, out.check());
    }

    @Test
    void keysLongerThanTheCapAreNotCacheable() {
        assertTrue(FingerprintCache.cacheable("x".repeat(FingerprintCache.MAX_CHARS)));
        assertFalse(FingerprintCache.cacheable("x".repeat(FingerprintCache.MAX_CHARS + 1)));
    }

    @Test
    void aTwoPartKeyHitsOnlyWithBothPartsEqual() {
        pairs.offer("ab", "c", 51, 52);
        assertFalse(pairs.find("a", "bc", out));
        assertFalse(pairs.find("ab", "d", out));
        assertTrue(pairs.find(new String("ab".toCharArray()), "c", out));
        assertEquals(51, out.keyword());
        assertEquals(52, out.check());
    }

    @Test
    void twoPartKeysWhosePartsSwapEqualHashCodesDoNotHitEachOther() {
        assertEquals(FingerprintCache.pairHash("Aa", "BB"), FingerprintCache.pairHash("BB", "Aa"));
        pairs.offer("Aa", "BB", 61, 62);
        assertFalse(pairs.find("BB", "Aa", out));
        assertFalse(pairs.find("Aa", "Aa", out));
    }

    @Test
    void entriesArePowersOfTwoFromSixteenToAThousandAndTwentyFour() {
        assertEquals(16, FingerprintCache.entriesFor(1));
        assertEquals(16, FingerprintCache.entriesFor(16));
        assertEquals(32, FingerprintCache.entriesFor(17));
        assertEquals(1024, FingerprintCache.entriesFor(1000));
        assertEquals(1024, FingerprintCache.entriesFor(1 << 20));
        assertEquals(FingerprintCache.entriesFor(100), FingerprintCache.ofKeys(100).entries());
    }

    @Test
    void manyKeysOnFewEntriesEachHitOnlyWithTheirOwnFingerprint() {
        FingerprintCache small = FingerprintCache.ofKeys(16);
        for (int i = 0; i < 10_000; i++) {
            small.offer("key-" + i, i * 2L + 100, i * 3L + 100);
        }
        int hits = 0;
        for (int i = 0; i < 10_000; i++) {
            if (small.find("key-" + i, out)) {
                hits++;
                assertEquals(i * 2L + 100, out.keyword(), "key-" + i);
                assertEquals(i * 3L + 100, out.check(), "key-" + i);
            }
        }
        assertTrue(hits > 0 && hits <= small.entries(), "hits " + hits);
    }
}
