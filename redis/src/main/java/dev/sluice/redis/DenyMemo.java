package dev.sluice.redis;

import dev.sluice.Decision;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Denials Redis has answered, kept in this JVM so that a later request for the same key and at least the same weight
 * is denied with no round trip while the denial must still hold.
 *
 * <p><b>Argument.</b> Redis denied {@code w} permits of a key and said they could pass {@code retry} ns later at the
 * earliest. The limiter read its clock at {@code sentAt}, just before sending; Redis decided after that, so until
 * {@code sentAt + retry} the same request (or a heavier one: every algorithm is monotone in the weight) would be
 * denied again, unless permits were given back: other requests only consume, which moves the next admission later.
 * So an answer from here is one Redis would have given, as long as no release reached Redis since the send.
 *
 * <p><b>Layout.</b> A power-of-two array of immutable {@link Entry} references, one per slot, indexed by a hash of
 * the caller's key (computed from the {@code long} or the characters, so that a lookup makes no String), and beside
 * it a {@code long} stamp per slot that every release of a key of that slot increments. An entry carries the stamp
 * read before its request was sent; it answers only while that stamp is current, so a release on this instance
 * silences every denial sent before it, even one whose reply arrives after the release. Lossy: a new denial
 * overwrites whatever its slot held (a forgotten denial costs one round trip). Lookups compare the key exactly, so a
 * different key that shares a slot is never denied by it.
 *
 * <p>Thread-safe and lock-free; a lookup is wait-free and allocates nothing. No background thread: an entry past its
 * time is ignored and overwritten by the next denial of its slot.
 */
final class DenyMemo {

    static final byte LONG = 1;
    static final byte STRING = 2;
    static final byte PAIR = 3;

    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(Entry[].class);
    private static final VarHandle STAMPS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Entry[] entries;
    private final long[] stamps;
    private final int mask;

    /** {@code slots}: a power of two, checked by the builder. */
    DenyMemo(int slots) {
        this.entries = new Entry[slots];
        this.stamps = new long[slots];
        this.mask = slots - 1;
    }

    /** The slot of a key; the same for the key however it is held ({@code long}, characters, two parts). */
    int slot(byte kind, long number, CharSequence first, CharSequence second) {
        long h;
        if (kind == LONG) {
            h = number;
        } else {
            h = chars(first);
            if (kind == PAIR) {
                h = h * 0x9E3779B97F4A7C15L + first.length();
                h = h * 0x9E3779B97F4A7C15L + chars(second);
            }
        }
        h = (h ^ (h >>> 33)) * 0xFF51AFD7ED558CCDL;
        h = (h ^ (h >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return (int) (h ^ (h >>> 33)) & mask;
    }

    /** The stamp to read before a request is sent, for {@link #remember}. */
    long stamp(int slot) {
        // Volatile: ordered before the send, so a release counted after this read is one the reply may predate.
        return (long) STAMPS.getVolatile(stamps, slot);
    }

    /**
     * Fills {@code d} (if not null) and returns true when a remembered denial of this key covers {@code permits} at
     * {@code now}; otherwise changes nothing and returns false. A request above the limit is left to Redis (its
     * answer is "never"); one heavier than the remembered denial gets that denial's retry-after, a lower bound.
     */
    boolean denies(int slot, byte kind, long number, CharSequence first, CharSequence second, long permits, long now,
            Decision d) {
        // Acquire: pairs with the release in remember, so the entry's fields are seen whole.
        Entry e = (Entry) ENTRIES.getAcquire(entries, slot);
        if (e == null || permits < e.permits || permits > e.limit || !e.is(kind, number, first, second)) {
            return false;
        }
        long elapsed = now - e.sentAt;
        // Volatile: a release that incremented the stamp before this read has silenced the entry.
        if (elapsed < 0 || elapsed >= e.hold || e.stamp != (long) STAMPS.getVolatile(stamps, slot)) {
            return false;
        }
        if (d != null) {
            d.set(false, e.limit, 0, e.retry - elapsed, Math.max(0, e.reset - elapsed), 0).request(permits, now);
        }
        return true;
    }

    /**
     * Remembers a denial of {@code permits} sent at {@code sentAt} with stamp {@code stamp}, answered as {@code d}:
     * it answers for {@code retry - slack} ns after {@code sentAt} ({@code slack} covers how much earlier than the
     * send the server's own time may read).
     */
    void remember(int slot, long stamp, byte kind, long number, CharSequence first, CharSequence second, long permits,
            long sentAt, long slack, Decision d) {
        long retry = d.retryAfterNanos();
        if (retry - slack <= 0 || retry == Decision.NEVER) {
            return; // nothing to save (a request above the capacity is denied for ever: it is not worth a slot)
        }
        Entry e = new Entry(kind, number, first == null ? null : first.toString(),
                second == null ? null : second.toString(), permits, sentAt, retry, retry - slack,
                d.resetAfterNanos(), d.limit(), stamp);
        // Release: publishes the entry's final fields to the acquire in denies.
        ENTRIES.setRelease(entries, slot, e);
    }

    /** A release of a key of this slot: every denial sent before now stops answering. Call before sending it. */
    void forget(int slot) {
        // Volatile add: ordered before the release is sent, and seen by every later lookup's volatile read.
        STAMPS.getAndAdd(stamps, slot, 1L);
    }

    /** One denial: immutable, so a reader sees it whole or not at all. */
    private static final class Entry {
        final byte kind;
        final long number;
        final String first;
        final String second;
        final long permits;
        final long sentAt;
        final long retry;
        final long hold;
        final long reset;
        final long limit;
        final long stamp;

        Entry(byte kind, long number, String first, String second, long permits, long sentAt, long retry, long hold,
                long reset, long limit, long stamp) {
            this.kind = kind;
            this.number = number;
            this.first = first;
            this.second = second;
            this.permits = permits;
            this.sentAt = sentAt;
            this.retry = retry;
            this.hold = hold;
            this.reset = reset;
            this.limit = limit;
            this.stamp = stamp;
        }

        boolean is(byte k, long n, CharSequence a, CharSequence b) {
            if (k != kind) {
                return false;
            }
            if (k == LONG) {
                return n == number;
            }
            return same(first, a) && (k != PAIR || same(second, b));
        }
    }

    private static boolean same(String stored, CharSequence given) {
        int n = stored.length();
        if (given.length() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (stored.charAt(i) != given.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static long chars(CharSequence s) {
        long h = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            h = h * 31 + s.charAt(i);
        }
        return h;
    }
}
