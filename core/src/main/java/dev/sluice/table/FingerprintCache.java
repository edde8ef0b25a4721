package dev.sluice.table;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.security.SecureRandom;

/**
 * A small, fixed-size cache from a {@code String} key's content (or a two-part key's) to its 128-bit fingerprint
 * (keyword and check), so that a key seen before is named without running the keyed hash over its bytes again.
 *
 * <p><b>Why it is safe.</b> An entry is chosen by the key's {@code String.hashCode()} (cached inside the String, so a
 * hot key pays nothing for it; a fresh String computes it once, as any hash map does), and it answers only if its
 * stored String {@code equals} the key: the test is on content, never on a hash. A caller who crafts keys with
 * equal {@code hashCode()} can only make entries miss, and a miss falls back to the keyed hash: the cache never gives
 * a key a fingerprint other than the one the keyed hash gives it. Fresh Strings equal in content to a cached one hit.
 * Only {@code java.lang.String} keys are cached (immutable, so the content compared is the content hashed); other
 * char sequences always hash.
 *
 * <p><b>Concurrency: lock-free reads, writes that never wait.</b> Each entry is a seqlock (H.-J. Boehm, "Can
 * seqlocks get along with programming language memory models?", MSPC 2012): a version word, then the key's hash,
 * keyword and check, and the String references. A writer claims the entry by a CAS of the version from even to odd,
 * writes the fields, and releases it to even + 2; a reader reads the version (acquire), the fields, fences (acquire)
 * and reads the version again, and uses what it read only if both versions are equal and even: then no write
 * overlapped its reads, and the references and words it holds were written together, by one writer, for one key. A
 * torn entry therefore reads as a miss, never as another key's fingerprint. A writer that finds the entry busy (odd,
 * or its CAS lost) skips the insert: a miss never waits and never retries.
 *
 * <p><b>Bounded memory.</b> {@code entries} is a power of two from {@value #MIN_ENTRIES} to {@value #MAX_ENTRIES}
 * (the next power of two at or above a table's key capacity, capped), direct-mapped: the newest key that lands on an
 * entry replaces the one there. Keys longer than {@value #MAX_CHARS} chars (either part, for a two-part key) are
 * never cached, so a hostile long key is never retained. The cache holds at most {@code entries} Strings (two per
 * entry for two-part keys) alive, about 300 KB at most for 1,024 entries of 128 Latin-1 chars, until its owner drops
 * it (a limiter's close, or the limiter becoming unreachable). The entry index mixes the hash with a secret drawn from
 * {@link SecureRandom}, so which keys share an entry differs from one cache to the next.
 */
public final class FingerprintCache {

    /** The fewest entries a cache has. */
    public static final int MIN_ENTRIES = 16;
    /** The most entries a cache has, whatever the table's capacity. */
    public static final int MAX_ENTRIES = 1024;
    /** The longest key (or key part) a cache holds, in chars. */
    public static final int MAX_CHARS = 128;

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle REFS = MethodHandles.arrayElementVarHandle(String[].class);
    private static final SecureRandom RANDOM = new SecureRandom();

    // Entry layout in words[]: four longs, two entries to a 64-byte line.
    private static final int VERSION = 0;
    private static final int HASH = 1;
    private static final int KEYWORD = 2;
    private static final int CHECK = 3;
    private static final int STRIDE = 4;

    private final long[] words;
    private final String[] firsts;
    /** Second parts, for a cache of two-part keys; null for a cache of single keys. */
    private final String[] seconds;
    private final int shift;
    private final int mixer;

    private FingerprintCache(int capacity, boolean pairs) {
        int entries = entriesFor(capacity);
        words = new long[entries * STRIDE];
        firsts = new String[entries];
        seconds = pairs ? new String[entries] : null;
        shift = Integer.numberOfLeadingZeros(entries) + 1;
        mixer = RANDOM.nextInt() | 1;
    }

    /** A cache of single String keys for a table of {@code capacity} keys. */
    public static FingerprintCache ofKeys(int capacity) {
        return new FingerprintCache(capacity, false);
    }

    /** A cache of two-part String keys for a table of {@code capacity} keys. */
    public static FingerprintCache ofPairs(int capacity) {
        return new FingerprintCache(capacity, true);
    }

    /** The entry count for a table of {@code capacity} keys: see the class comment. */
    public static int entriesFor(int capacity) {
        int c = Math.max(MIN_ENTRIES, Math.min(MAX_ENTRIES, capacity));
        return Integer.highestOneBit(c - 1) << 1;
    }

    /** How many entries this cache has. */
    public int entries() {
        return firsts.length;
    }

    /** Whether {@code key} is short enough to be cached (at most {@value #MAX_CHARS} chars). */
    public static boolean cacheable(String key) {
        return key.length() <= MAX_CHARS;
    }

    /** A two-part key's hash: both parts' {@code hashCode()}, combined so that the split matters. */
    public static int pairHash(String first, String second) {
        return first.hashCode() * 0x9E3779B1 + second.hashCode();
    }

    /**
     * Fills {@code out} with {@code key}'s fingerprint and returns true if an entry holds it; false (and {@code out}
     * untouched) on a miss. {@code key} is {@link #cacheable}; a single-key cache.
     */
    public boolean find(String key, Fingerprint out) {
        return find(key, null, key.hashCode(), out);
    }

    /** As {@link #find(String, Fingerprint)} for the two-part key {@code (first, second)}; a two-part cache. */
    public boolean find(String first, String second, Fingerprint out) {
        return find(first, second, pairHash(first, second), out);
    }

    /** Offers {@code key}'s fingerprint, computed by the keyed hash; skipped if the entry is busy. */
    public void offer(String key, long keyword, long check) {
        offer(key, null, key.hashCode(), keyword, check);
    }

    /** Offers the two-part key's fingerprint, computed by the keyed hash; skipped if the entry is busy. */
    public void offer(String first, String second, long keyword, long check) {
        offer(first, second, pairHash(first, second), keyword, check);
    }

    /** The entry that holds a key whose (single or {@link #pairHash two-part}) hash is {@code hash}. */
    public int entryOf(int hash) {
        return (hash * mixer) >>> shift;
    }

    /**
     * Begins a read of {@code entry}: its version, to pass to {@link #held}. A caller reads {@link #keyword} and
     * {@link #check} after this and uses them only if {@link #held} then says the entry held its key throughout; so a
     * hit needs no object to carry two words (see {@link #find(String, Fingerprint)}, which reads the same way).
     */
    public long beginRead(int entry) {
        // Acquire: the fields read after this are at least as new as the write that left this version.
        return (long) WORDS.getAcquire(words, entry * STRIDE + VERSION);
    }

    /** The keyword {@code entry} holds, read between {@link #beginRead} and {@link #held}. */
    public long keyword(int entry) {
        // Opaque: whole (no torn long); whether it belongs to the key is what held() decides.
        return (long) WORDS.getOpaque(words, entry * STRIDE + KEYWORD);
    }

    /** The check {@code entry} holds, read between {@link #beginRead} and {@link #held}. */
    public long check(int entry) {
        // Opaque, as keyword().
        return (long) WORDS.getOpaque(words, entry * STRIDE + CHECK);
    }

    /**
     * Ends a read of {@code entry} begun at {@code version}: true if no write overlapped it and the entry holds the
     * key {@code first} (with {@code second}, for a two-part cache; null for a single-key cache) of hash
     * {@code hash}; then the words read since {@link #beginRead} are that key's fingerprint.
     */
    public boolean held(int entry, long version, int hash, String first, String second) {
        int at = entry * STRIDE;
        // Opaque reads, before the fence: what they read was written together with the words only if the version
        // is unchanged below.
        long storedHash = (long) WORDS.getOpaque(words, at + HASH);
        String storedFirst = (String) REFS.getOpaque(firsts, entry);
        String storedSecond = second == null ? null : (String) REFS.getOpaque(seconds, entry);
        // Acquire fence: the field reads above (and the caller's reads of the words) complete before the version is
        // read again, so a write that overlapped them has made the version odd or newer by then (its release fence
        // pairs with this one).
        VarHandle.acquireFence();
        return (version & 1) == 0 && (long) WORDS.getOpaque(words, at + VERSION) == version && storedHash == hash
                && storedFirst != null && storedFirst.equals(first)
                && (second == null || second.equals(storedSecond));
    }

    private boolean find(String first, String second, int hash, Fingerprint out) {
        int entry = entryOf(hash);
        long version = beginRead(entry);
        long keyword = keyword(entry);
        long check = check(entry);
        if (!held(entry, version, hash, first, second)) {
            return false;
        }
        out.set(keyword, check);
        return true;
    }

    private void offer(String first, String second, int hash, long keyword, long check) {
        int entry = entryOf(hash);
        int at = entry * STRIDE;
        // Opaque: only a guess of the version; the CAS decides.
        long version = (long) WORDS.getOpaque(words, at + VERSION);
        // Volatile CAS: claims the entry (odd) for this writer alone; a busy entry is skipped, never waited for.
        if ((version & 1) != 0 || !WORDS.compareAndSet(words, at + VERSION, version, version + 1)) {
            return;
        }
        // Release fence: the odd version is ordered before every field write, so a reader that sees any of them
        // sees the version changed when it reads it again.
        VarHandle.releaseFence();
        // Opaque writes: whole values; the versions around them say when they are consistent.
        WORDS.setOpaque(words, at + HASH, (long) hash);
        WORDS.setOpaque(words, at + KEYWORD, keyword);
        WORDS.setOpaque(words, at + CHECK, check);
        REFS.setOpaque(firsts, entry, first);
        if (second != null) {
            REFS.setOpaque(seconds, entry, second);
        }
        // Release: the fields are visible before the even version that says they are complete.
        WORDS.setRelease(words, at + VERSION, version + 2);
    }
}
