package dev.sluice.negative;

import static dev.sluice.jcstress.keycache.KeyCacheReads.A;
import static dev.sluice.jcstress.keycache.KeyCacheReads.A_CHECK;
import static dev.sluice.jcstress.keycache.KeyCacheReads.A_KEYWORD;
import static dev.sluice.jcstress.keycache.KeyCacheReads.B;
import static dev.sluice.jcstress.keycache.KeyCacheReads.B_CHECK;
import static dev.sluice.jcstress.keycache.KeyCacheReads.B_KEYWORD;

import dev.sluice.jcstress.keycache.KeyCacheReads;
import dev.sluice.table.Fingerprint;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Negative controls of the key cache family: the expectations of {@code EqualHashEntryRaces} against
 * {@link UncheckedFingerprintCache} (no version word). JCStress must report a FORBIDDEN outcome: a key read with the
 * other key's words.
 */
public final class UncheckedFingerprintCacheControls {

    private UncheckedFingerprintCacheControls() {
    }

    /** As {@code EqualHashEntryRaces.ReplaceWhileRead}. */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "read before the write: A missed, B hit with its own words")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "A missed (before or during the write), B missed (during or after it)")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "read after the write: A hit with its own words, B replaced")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a key got another key's or torn words (expected here: no version check)")
    @State
    public static class ReplaceWhileRead {
        private final UncheckedFingerprintCache cache = new UncheckedFingerprintCache();

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

    /** As {@code EqualHashEntryRaces.PairReplaceWhileRead}. */
    @JCStressTest
    @Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "read before the write: (A, B) missed, (B, A) hit with its own words")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "(A, B) missed (before or during the write), (B, A) missed (during or after it)")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "read after the write: (A, B) hit with its own words, (B, A) replaced")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a pair got another pair's or torn words (expected here: no version check)")
    @State
    public static class PairReplaceWhileRead {
        private final UncheckedFingerprintCache cache = new UncheckedFingerprintCache();

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
