package dev.sluice.negative;

import dev.sluice.Algorithm;
import dev.sluice.MemoryBackend;
import dev.sluice.RateLimitConfig;
import dev.sluice.algorithm.SlidingWindowLog;
import dev.sluice.support.OneKey;
import dev.sluice.table.KeyTable;
import dev.sluice.table.MemoryFactory;
import dev.sluice.table.OffHeapMemory;
import dev.sluice.table.SlidingLogLifecycle;
import java.time.Duration;

/**
 * BROKEN ON PURPOSE (negative control): one key of the real sliding window log in a real {@link KeyTable}, admitted
 * without the claim: read the header, decide, write the ring, store the next header. Two admissions that read one
 * header write the same ring slot, so one timestamp is lost.
 */
final class UnclaimedLog {

    private static final long KEYWORD = 1L << 32;

    private final SlidingWindowLog log;
    private final KeyTable table;
    private final long handle;
    private final long limit;

    UnclaimedLog(long limit, long setupPermits, long setupNanos) {
        this.limit = limit;
        this.log = new SlidingWindowLog(RateLimitConfig.of(Algorithm.SLIDING_WINDOW_LOG, limit,
                Duration.ofNanos(OneKey.WINDOW)));
        this.table = new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), false, 1, (int) limit,
                new SlidingLogLifecycle(log), 0);
        this.handle = table.findOrPut(KEYWORD, 0, setupNanos);
        for (long i = 0; i < setupPermits; i++) {
            if (take(setupNanos) == 0) {
                throw new IllegalStateException("setup denied");
            }
        }
    }

    int take(long t) {
        OffHeapMemory mem = table.memoryOf(handle);
        long header = table.state(handle);
        int base = table.ringWordOffset(SlidingWindowLog.ringOf(header), 0);
        // The defect: no CAS to claim the header, so two writers may fill the same ring slot.
        long next = log.admit(header, mem, base, t, 1);
        if (next == SlidingWindowLog.DENIED) {
            return 0;
        }
        table.putStateRelease(handle, next);
        return 1;
    }

    int drain(long t) {
        int n = 0;
        while (n <= limit && take(t) == 1) {
            n++;
        }
        return n;
    }

    void free() {
        table.free();
    }
}
