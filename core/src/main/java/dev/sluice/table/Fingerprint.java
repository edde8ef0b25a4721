package dev.sluice.table;

/**
 * A string key's 128-bit fingerprint as a table uses it: the keyword (placement and first half of the name) and the
 * check (second half). Mutable, made for one call and filled by whichever of {@link FingerprintCache} or the keyed
 * hash names the key, so that the JIT can keep it in registers. Not thread-safe.
 */
public final class Fingerprint {

    private long keyword;
    private long check;

    /** Sets both words. */
    public void set(long keyword, long check) {
        this.keyword = keyword;
        this.check = check;
    }

    /** Sets both words from a finished keyed hash ({@link KeyHashing#keyword}, {@link KeyHashing#check}). */
    public void set(SipHasher finished) {
        set(KeyHashing.keyword(finished), KeyHashing.check(finished));
    }

    public long keyword() {
        return keyword;
    }

    public long check() {
        return check;
    }
}
