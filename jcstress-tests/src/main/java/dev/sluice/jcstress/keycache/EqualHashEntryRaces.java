package dev.sluice.jcstress.keycache;

import static dev.sluice.jcstress.keycache.KeyCacheReads.A;
import static dev.sluice.jcstress.keycache.KeyCacheReads.A_CHECK;
import static dev.sluice.jcstress.keycache.KeyCacheReads.A_KEYWORD;
import static dev.sluice.jcstress.keycache.KeyCacheReads.B;
import static dev.sluice.jcstress.keycache.KeyCacheReads.B_CHECK;
import static dev.sluice.jcstress.keycache.KeyCacheReads.B_KEYWORD;

import dev.sluice.table.Fingerprint;
import dev.sluice.table.FingerprintCache;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * {@link FingerprintCache} entries under concurrent writes: two keys with equal {@code hashCode()} ({@code "Aa"} and
 * {@code "BB"}) share one entry, and a reader asking for one key gets a miss or exactly that key's fingerprint, never
 * the other key's and never a mix of both (codes of {@link KeyCacheReads}: 0 miss, 1 own, 2 other's, 3 torn).
 */
public final class EqualHashEntryRaces {

    private EqualHashEntryRaces() {
    }

    /**
     * The entry holds B; one writer replaces it with A while a reader asks for A, then for B. Once the reader has
     * seen A, B is gone for good.
     */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "read before the write: A missed, B hit with its own words")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "A missed (before or during the write), B missed (during or after it)")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "read after the write: A hit with its own words, B replaced")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a key got another key's or torn words, or B came back after A was seen")
    @State
    public static class ReplaceWhileRead {
        private final FingerprintCache cache = FingerprintCache.ofKeys(16);

        public ReplaceWhileRead() {
            cache.offer(B, B_KEYWORD, B_CHECK);
        }

        @Actor
        public void writeA() {
            cache.offer(A, A_KEYWORD, A_CHECK);
        }

        @Actor
        public void readAThenB(II_Result r) {
            Fingerprint f = new Fingerprint();
            boolean hit = cache.find(A, f);
            r.r1 = KeyCacheReads.code(hit, f.keyword(), f.check(), A_KEYWORD, A_CHECK, B_KEYWORD, B_CHECK);
            f = new Fingerprint();
            hit = cache.find(B, f);
            r.r2 = KeyCacheReads.code(hit, f.keyword(), f.check(), B_KEYWORD, B_CHECK, A_KEYWORD, A_CHECK);
        }
    }

    /**
     * An empty entry; two writers offer A and B at once while a third thread asks for A and for B. Afterwards the
     * entry holds exactly one of them (the second writer either replaced the first or found the entry busy). Runs on
     * three CPUs or more.
     */
    @JCStressTest
    @Outcome(id = {"0, 0, 1", "1, 0, 1", "0, 1, 1", "1, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "each read a miss or its own key's words; A left in the entry")
    @Outcome(id = {"0, 0, 2", "1, 0, 2", "0, 1, 2", "1, 1, 2"}, expect = Expect.ACCEPTABLE, desc = "each read a miss or its own key's words; B left in the entry")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a key got another key's or torn words, or the entry holds neither or a mix")
    @State
    public static class TwoWritersAndAReaderThreeActors {
        private final FingerprintCache cache = FingerprintCache.ofKeys(16);

        @Actor
        public void writeA() {
            cache.offer(A, A_KEYWORD, A_CHECK);
        }

        @Actor
        public void writeB() {
            cache.offer(B, B_KEYWORD, B_CHECK);
        }

        @Actor
        public void readAAndB(III_Result r) {
            Fingerprint f = new Fingerprint();
            boolean hit = cache.find(A, f);
            r.r1 = KeyCacheReads.code(hit, f.keyword(), f.check(), A_KEYWORD, A_CHECK, B_KEYWORD, B_CHECK);
            f = new Fingerprint();
            hit = cache.find(B, f);
            r.r2 = KeyCacheReads.code(hit, f.keyword(), f.check(), B_KEYWORD, B_CHECK, A_KEYWORD, A_CHECK);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = KeyCacheReads.holder(cache);
        }
    }

    /**
     * As {@link TwoWritersAndAReaderThreeActors} on two threads (JCStress runs a test only with a CPU per actor): one writer
     * offers A while the other offers B and then asks for A and for B.
     */
    @JCStressTest
    @Outcome(id = {"0, 0, 1", "1, 0, 1", "0, 1, 1", "1, 1, 1"}, expect = Expect.ACCEPTABLE, desc = "each read a miss or its own key's words; A left in the entry")
    @Outcome(id = {"0, 0, 2", "1, 0, 2", "0, 1, 2", "1, 1, 2"}, expect = Expect.ACCEPTABLE, desc = "each read a miss or its own key's words; B left in the entry")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a key got another key's or torn words, or the entry holds neither or a mix")
    @State
    public static class TwoWritersOneReading {
        private final FingerprintCache cache = FingerprintCache.ofKeys(16);

        @Actor
        public void writeA() {
            cache.offer(A, A_KEYWORD, A_CHECK);
        }

        @Actor
        public void writeBThenReadAAndB(III_Result r) {
            cache.offer(B, B_KEYWORD, B_CHECK);
            Fingerprint f = new Fingerprint();
            boolean hit = cache.find(A, f);
            r.r1 = KeyCacheReads.code(hit, f.keyword(), f.check(), A_KEYWORD, A_CHECK, B_KEYWORD, B_CHECK);
            f = new Fingerprint();
            hit = cache.find(B, f);
            r.r2 = KeyCacheReads.code(hit, f.keyword(), f.check(), B_KEYWORD, B_CHECK, A_KEYWORD, A_CHECK);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = KeyCacheReads.holder(cache);
        }
    }

    /**
     * Two-part keys {@code (A, B)} and {@code (B, A)}, whose combined hashes are equal, so they share one entry of a
     * pair cache: the entry holds {@code (B, A)}, one writer replaces it with {@code (A, B)} while a reader asks for
     * {@code (A, B)} then {@code (B, A)}.
     */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "read before the write: (A, B) missed, (B, A) hit with its own words")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "(A, B) missed (before or during the write), (B, A) missed (during or after it)")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "read after the write: (A, B) hit with its own words, (B, A) replaced")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a pair got another pair's or torn words, or (B, A) came back after (A, B) was seen")
    @State
    public static class PairReplaceWhileRead {
        private final FingerprintCache cache = FingerprintCache.ofPairs(16);

        public PairReplaceWhileRead() {
            cache.offer(B, A, B_KEYWORD, B_CHECK);
        }

        @Actor
        public void writeAB() {
            cache.offer(A, B, A_KEYWORD, A_CHECK);
        }

        @Actor
        public void readABThenBA(II_Result r) {
            Fingerprint f = new Fingerprint();
            boolean hit = cache.find(A, B, f);
            r.r1 = KeyCacheReads.code(hit, f.keyword(), f.check(), A_KEYWORD, A_CHECK, B_KEYWORD, B_CHECK);
            f = new Fingerprint();
            hit = cache.find(B, A, f);
            r.r2 = KeyCacheReads.code(hit, f.keyword(), f.check(), B_KEYWORD, B_CHECK, A_KEYWORD, A_CHECK);
        }
    }
}
