package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.algorithm.SlidingWindowLog;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A sliding log's header carries a 17-bit version, so 2^17 admissions of one permit on a key whose limit divides 2^17
 * bring the header back to the very same value, with newer entries in the ring. A reclaimer that judged the key idle
 * and then stalled for exactly those writes meets an equal header at its CAS: the table must not drop the busy key.
 * The ring's writer here follows the sliding log limiter's protocol (claim the header by CAS, write, release).
 */
class SlidingLogHeaderWrapTest {

    private static final long LIMIT = 4;
    private static final long W = 1_000_000;
    private static final int WRAP = 1 << 17;
    /** Both keywords have home slot 0 of a 4-slot stripe. */
    private static final long K1 = 1L << 32;
    private static final long K2 = 2L << 32;
    /** Home slots 0 and 2 of a 4-slot stripe. */
    private static final long HOME0 = 4L << 32;
    private static final long HOME2 = (5L << 32) | 0x8000_0000L;

    private final SlidingWindowLog log =
            new SlidingWindowLog(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, LIMIT, Duration.ofNanos(W)));
    /** Capacity 2: four slots, two rings, at most two live keys. */
    private final KeyTable table = new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), false, 2, (int) LIMIT,
            new SlidingLogLifecycle(log), 0);
    private long headerBeforeStall = -1;
    private long headerAfterStall = -1;

    @AfterEach
    void free() {
        table.free();
    }

    @Test
    void aTakeOverThatStallsWhileTheHeaderWrapsKeepsTheBusyKey() {
        long victim = put(K1, 0);
        fill(victim, 0);
        stallReclaimOf(victim, 2 * W);

        long taker = table.findOrPut(K2, 0, 2 * W);

        assertEquals(headerBeforeStall, headerAfterStall, "the stall took the header round to the same value");
        assertEquals(victim, table.find(K1, 0), "the busy key keeps its slot and its log");
        assertNotEquals(victim, taker);
        assertEquals(SlidingWindowLog.DENIED, admit(victim, lastStallWrite(2 * W)), "its full window still denies");
    }

    @Test
    void anEvictionThatStallsWhileTheHeaderWrapsKeepsTheBusyKey() {
        long live = put(HOME0, 0);
        admit(live, 2 * W);
        long victim = put(HOME2, 0);
        fill(victim, 0);
        stallReclaimOf(victim, 2 * W);

        long refused = table.findOrPut(K2, 0, 2 * W);

        assertEquals(headerBeforeStall, headerAfterStall, "the stall took the header round to the same value");
        assertEquals(KeyTable.FULL, refused, "no key is idle: the table is full");
        assertEquals(victim, table.find(HOME2, 0), "the busy key keeps its slot and its log");
        assertEquals(SlidingWindowLog.DENIED, admit(victim, lastStallWrite(2 * W)), "its full window still denies");
    }

    private static int ringBase(KeyTable t, long header) {
        return t.ringWordOffset(SlidingWindowLog.ringOf(header), 0);
    }

    private long put(long keyword, long t) {
        long handle = table.findOrPut(keyword, 0, t);
        assertTrue(handle >= 0);
        return handle;
    }

    /** Fills the key's window at {@code t}: its ring wraps, so its header's full bit is set from here on. */
    private void fill(long handle, long t) {
        for (int i = 0; i < LIMIT; i++) {
            assertNotEquals(SlidingWindowLog.DENIED, admit(handle, t));
        }
    }

    /**
     * Arms the hook: the first reclaim CAS on {@code victim} is preceded by {@value #WRAP} admissions on it, a quarter
     * window apart from {@code from} on, each admitted; the limit dividing {@value #WRAP}, its position comes back too.
     */
    private void stallReclaimOf(long victim, long from) {
        table.beforeReclaimCas = handle -> {
            if (handle != victim) {
                return;
            }
            table.beforeReclaimCas = null;
            headerBeforeStall = table.state(victim);
            for (int i = 0; i < WRAP; i++) {
                assertNotEquals(SlidingWindowLog.DENIED, admit(victim, from + i * (W / LIMIT)));
            }
            headerAfterStall = table.state(victim);
        };
    }

    private static long lastStallWrite(long from) {
        return from + (WRAP - 1) * (W / LIMIT);
    }

    /** One permit at {@code t} under the key's claim; the new header, or DENIED. */
    private long admit(long handle, long t) {
        OffHeapMemory mem = table.memoryOf(handle);
        int at = table.stateOffset(KeyTable.slotOf(handle));
        long header = mem.getLongVolatile(at);
        assertTrue(header >= 0 && !SlidingWindowLog.claimed(header), "the key is live and unclaimed");
        assertTrue(mem.compareAndSetLong(at, header, header | SlidingWindowLog.CLAIM));
        long next = log.admit(header, mem, ringBase(table, header), t, 1);
        mem.putLongRelease(at, next == SlidingWindowLog.DENIED ? header : next);
        return next;
    }
}
