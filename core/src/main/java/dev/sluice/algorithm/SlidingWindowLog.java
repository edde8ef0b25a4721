package dev.sluice.algorithm;

import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;

/**
 * Sliding window log: the timestamps of the last {@code limit} admitted permits of a key, in a ring; a request of
 * {@code n} is admitted iff, with it, at most {@code limit} permits fall in {@code (t - W, t]}. Exact.
 *
 * <pre>
 * header: [ 0 | claim (1) | full (1) | version (17 bits) | ring index (24 bits) | position (20 bits) ]
 * ring:   limit x long, entry i = admission time (ns of limiter time) of the permit with sequence number
 *         s = i (mod limit); position = next sequence number mod limit; full = at least limit permits ever admitted
 * admit n  iff  n <= limit and (fewer than limit - n + 1 permits ever, or
 *               the (limit - n + 1)-th most recent entry <= t - W)
 * </pre>
 * Entries are non-decreasing in sequence order: an entry is written with {@code max(t, newest entry)}, so a request
 * at an earlier time counts as no time passing for that key. The functions here are pure given the ring's content;
 * the limiter holds the key's claim (the header's claim bit) while it writes the ring.
 *
 * <p>Undo: an admission records the time its entries were written with (the newest entry after it, {@link #newest}).
 * The log decides on the multiset of timestamps in the window only, so entries with equal timestamps cannot be told
 * apart by any later decision: removing {@code n} entries with the admission's timestamp leaves exactly the log
 * without that admission. An entry is overwritten only once it is out of the window (the admission that overwrites
 * it checks so), and the key's time never goes back, so while the admission's timestamp is still inside the window
 * (after the newest entry's time minus the window) its {@code n} entries are all in the ring; once it is not, they
 * count for nothing and the undo does nothing. The removal keeps the ring sorted (newer entries shift down, as in
 * {@link #release}).
 */
public final class SlidingWindowLog {

    /** Returned by {@link #acquire} when the request is denied. */
    public static final long DENIED = -1L;
    /** Header bit set while a writer owns the ring. */
    public static final long CLAIM = 1L << 62;
    private static final long FULL = 1L << 61;
    private static final int RING_SHIFT = 20;
    private static final long POSITION_MASK = (1L << RING_SHIFT) - 1;
    /** Rings per table stripe are limited to 2^24 (see {@code KeyTable}). */
    public static final long MAX_RINGS = 1L << 24;
    private static final long RING_MASK = MAX_RINGS - 1;
    /**
     * Advanced by every write, so that a header never comes back to an earlier value after a lap of the ring (an
     * ABA that would let a stale claim or reclaim CAS succeed) unless 2^17 writes happen while a thread stalls.
     */
    private static final long VERSION_ONE = 1L << 44;
    private static final long VERSION_MASK = ((1L << 17) - 1) << 44;
    /** A timestamp outside every window: slots freed by {@link #release} in a wrapped ring. */
    private static final long EXPIRED = Long.MIN_VALUE / 4;

    private final long limit;
    private final long window;

    public SlidingWindowLog(RateLimitConfig config) {
        this.limit = config.limit();
        this.window = config.windowNanos();
    }

    public long limit() {
        return limit;
    }

    /** The header of a key first seen, owning {@code ring}. */
    public static long freshHeader(long ring) {
        return ring << RING_SHIFT;
    }

    public static long ringOf(long header) {
        return (header >>> RING_SHIFT) & RING_MASK;
    }

    public static boolean claimed(long header) {
        return (header & CLAIM) != 0;
    }

    /** The header after admitting {@code permits} at {@code t}, unclaimed, or {@link #DENIED}. Reads the ring only. */
    public long acquire(long header, LongWords mem, int ringBase, long t, long permits) {
        if (permits > limit) {
            return DENIED;
        }
        return acquireAt(header, mem, ringBase, effectiveTime(header, mem, ringBase, t), permits);
    }

    /** {@link #acquire} at the key's effective time {@code now}, given {@code permits <= limit}. */
    private long acquireAt(long header, LongWords mem, int ringBase, long now, long permits) {
        long pos = header & POSITION_MASK;
        boolean full = (header & FULL) != 0;
        if (full || pos + permits > limit) {
            // The entry this admission overwrites last: it must already be out of the window.
            long oldest = entry(mem, ringBase, wrap(pos + permits - 1));
            if (oldest > now - window) {
                return DENIED;
            }
        }
        long next = pos + permits;
        long newFull = full || next >= limit ? FULL : 0;
        return nextVersion(header & ~(POSITION_MASK | FULL | CLAIM)) | newFull | wrap(next);
    }

    /**
     * Whether {@code permits} at {@code t} would be admitted as if {@code t} were the key's latest time. Reads one ring
     * entry (the one the admission overwrites last). A yes is a yes at {@code max(t, newest entry)} too, the window's
     * start only moving later; a no is not a denial (the newest entry may be later than {@code t}): ask
     * {@link #acquire}.
     */
    public boolean admitsAt(long header, LongWords mem, int ringBase, long t, long permits) {
        if (permits > limit) {
            return false;
        }
        long pos = header & POSITION_MASK;
        if ((header & FULL) == 0 && pos + permits <= limit) {
            return true;
        }
        return entry(mem, ringBase, wrap(pos + permits - 1)) <= t - window;
    }

    /**
     * {@link #acquire}, and on an admission the writing of its entries; the caller holds the claim. Returns the new
     * header, unclaimed, or {@link #DENIED} (nothing written).
     */
    public long admit(long header, LongWords mem, int ringBase, long t, long permits) {
        if (permits > limit) {
            return DENIED;
        }
        long now = effectiveTime(header, mem, ringBase, t);
        long next = acquireAt(header, mem, ringBase, now, permits);
        if (next != DENIED) {
            long pos = header & POSITION_MASK;
            for (long i = 0; i < permits; i++) {
                // Plain: the release store of the unclaimed header publishes these entries.
                mem.putLongPlain(ringBase + (int) wrap(pos + i) * 8, now);
            }
        }
        return next;
    }

    /**
     * Gives back up to {@code permits} of the newest entries recorded at or before {@code t} (newer entries belong to
     * later admissions and stay); the caller holds the claim. Returns the new header, unclaimed.
     */
    public long release(long header, LongWords mem, int ringBase, long t, long permits) {
        long stored = stored(header);
        long ours = stored - countAfter(header, mem, ringBase, t); // entries [0, ours) are at or before t
        return remove(header, mem, ringBase, ours, Math.min(permits, ours));
    }

    /** The newest entry of a non-empty ring: an admission's timestamp, read under the claim that wrote it. */
    public long newest(long header, LongWords mem, int ringBase) {
        return entry(mem, ringBase, seqIndex(header, stored(header) - 1));
    }

    /**
     * Undoes an admission of {@code permits} whose entries were written with {@code stamp} (see the class comment);
     * the caller holds the claim. Returns the new header, unclaimed.
     */
    public long undo(long header, LongWords mem, int ringBase, long stamp, long permits) {
        long stored = stored(header);
        if (stored == 0 || stamp <= newest(header, mem, ringBase) - window) {
            return header & ~CLAIM; // out of the window: the admission's entries count for nothing
        }
        long end = stored - countAfter(header, mem, ringBase, stamp); // entries [0, end) are at or before stamp
        long equal = end - (stored - countAfter(header, mem, ringBase, stamp - 1));
        return remove(header, mem, ringBase, end, Math.min(permits, equal));
    }

    /** Removes the {@code removed} entries just before sequence index {@code end}; returns the header, unclaimed. */
    private long remove(long header, LongWords mem, int ringBase, long end, long removed) {
        if (removed == 0) {
            return header & ~CLAIM;
        }
        long stored = stored(header);
        for (long k = end; k < stored; k++) {
            putEntry(mem, ringBase, seqIndex(header, k - removed), entry(mem, ringBase, seqIndex(header, k)));
        }
        long pos = header & POSITION_MASK;
        long newPos = pos >= removed ? pos - removed : pos - removed + limit;
        if ((header & FULL) != 0) {
            // A wrapped ring stays wrapped: the freed slots become its oldest entries, marked as long expired.
            for (long k = stored - removed; k < stored; k++) {
                putEntry(mem, ringBase, seqIndex(header, k), EXPIRED);
            }
        }
        long kept = nextVersion(header & ~(POSITION_MASK | CLAIM));
        return kept | newPos;
    }

    /** Whether the key holds no permit in the window at {@code t}. */
    public boolean isIdle(long header, LongWords mem, int ringBase, long t) {
        long stored = stored(header);
        return stored == 0 || entry(mem, ringBase, seqIndex(header, stored - 1)) < t - window;
    }

    /** Fills {@code d}: remaining permits in the window, retry-after, reset. */
    public void describe(long header, boolean allowed, LongWords mem, int ringBase, long t, long permits,
            Decision d) {
        long now = effectiveTime(header, mem, ringBase, t);
        long stored = stored(header);
        long inWindow = countAfter(header, mem, ringBase, now - window);
        long remaining = Math.max(0, limit - inWindow);
        long reset = stored == 0 ? 0 : Math.max(0, entry(mem, ringBase, seqIndex(header, stored - 1)) + window - now);
        if (allowed) {
            d.set(true, limit, remaining, 0, reset, 0);
        } else if (permits > limit) {
            d.set(false, limit, remaining, Decision.NEVER, reset, 0);
        } else {
            // The permit that must leave the window first is the (limit - permits + 1)-th newest.
            long k = stored - (limit - permits + 1);
            long retry = k < 0 ? 0 : entry(mem, ringBase, seqIndex(header, k)) + window - now;
            d.set(false, limit, remaining, Math.max(0, retry), reset, 0);
        }
    }

    private long effectiveTime(long header, LongWords mem, int ringBase, long t) {
        long stored = stored(header);
        return stored == 0 ? t : Math.max(t, entry(mem, ringBase, seqIndex(header, stored - 1)));
    }

    /** {@code i mod limit} for {@code i} in {@code [0, 2 * limit)}: a ring index without a division. */
    private long wrap(long i) {
        return i >= limit ? i - limit : i;
    }

    private static long nextVersion(long header) {
        return (header & ~VERSION_MASK) | ((header + VERSION_ONE) & VERSION_MASK);
    }

    /** How many entries of the ring are valid: every slot once the ring has wrapped. */
    private long stored(long header) {
        return (header & FULL) != 0 ? limit : header & POSITION_MASK;
    }

    /** Ring index of the k-th oldest valid entry. */
    private long seqIndex(long header, long k) {
        long pos = header & POSITION_MASK;
        return (header & FULL) != 0 ? wrap(pos + k) : k;
    }

    /** Number of valid entries newer than {@code threshold}: binary search, the entries being sorted. */
    private long countAfter(long header, LongWords mem, int ringBase, long threshold) {
        long lo = 0;
        long hi = stored(header);
        long stored = hi;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            if (entry(mem, ringBase, seqIndex(header, mid)) > threshold) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return stored - lo;
    }

    private static void putEntry(LongWords mem, int ringBase, long index, long value) {
        // Plain: the claim holder's release store of the header publishes this entry.
        mem.putLongPlain(ringBase + (int) index * 8, value);
    }

    private static long entry(LongWords mem, int ringBase, long index) {
        // Plain: the caller read the header with acquire (or holds the claim), which orders these reads.
        return mem.getLongPlain(ringBase + (int) index * 8);
    }
}
