package dev.sluice.negative;

import dev.sluice.table.Fingerprint;

/**
 * A deliberately broken {@code FingerprintCache}: the same entries and the same content check, but no version word,
 * so a reader can take the words of one write and the String of another. For negative controls only.
 */
public final class UncheckedFingerprintCache {

    private final long[] hashes = new long[16];
    private final long[] keywords = new long[16];
    private final long[] checks = new long[16];
    private final String[] firsts = new String[16];
    private final String[] seconds = new String[16];

    /** The one entry every key of these tests lands on: equal hashes, one entry. */
    private static int entryOf(int hash) {
        return hash & 15;
    }

    public boolean find(String key, Fingerprint out) {
        return find(key, null, key.hashCode(), out);
    }

    public boolean find(String first, String second, Fingerprint out) {
        return find(first, second, first.hashCode() * 0x9E3779B1 + second.hashCode(), out);
    }

    public void offer(String key, long keyword, long check) {
        offer(key, null, key.hashCode(), keyword, check);
    }

    public void offer(String first, String second, long keyword, long check) {
        offer(first, second, first.hashCode() * 0x9E3779B1 + second.hashCode(), keyword, check);
    }

    private boolean find(String first, String second, int hash, Fingerprint out) {
        int e = entryOf(hash);
        long keyword = keywords[e];
        long check = checks[e];
        String storedFirst = firsts[e];
        String storedSecond = seconds[e];
        if (hashes[e] != hash || storedFirst == null || !storedFirst.equals(first)
                || second != null && !second.equals(storedSecond)) {
            return false;
        }
        out.set(keyword, check);
        return true;
    }

    private void offer(String first, String second, int hash, long keyword, long check) {
        int e = entryOf(hash);
        hashes[e] = hash;
        keywords[e] = keyword;
        checks[e] = check;
        firsts[e] = first;
        seconds[e] = second;
    }
}
