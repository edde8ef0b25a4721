package dev.sluice.engine;

/**
 * What a request does after its CAS on a key's state word failed: it waits a fixed number of spin-wait hints
 * before it reads the word again.
 *
 * <p>Why: on a hot key every admission moves the word's cache line to the admitting core. Without a pause, two cores
 * take turns and each admission pays one line transfer (about 200 ns on the 2-core VM of the JMH report). A loser
 * that steps back lets the winner admit several requests with the line in its own cache. Measured there
 * ({@code HotKeyBenchmark}, token bucket admitting, 2 to 8 threads): 11-15 M/s without it, 21.5 M/s with 64 hints,
 * 23.4 M/s with 128, 25 M/s with 256. Measured again side by side on 2026-12-04, 4 rounds of one fork each
 * ({@code jmh/EXPERIMENTS.md}, "The CAS backoff at 512 hints"): 512 hints were ahead of 128 in all 10 pairs (2, 4
 * and 8 threads), 768 and 1024 no better than 512. 512 it is. Sampled on 2 threads, the p99 fell from 2.8 us to
 * 0.25 us (fewer requests lose a CAS) and the p99.9, the loser's wait, rose from 3-12 us to about 10 us.
 * One hint is the x86 {@code PAUSE}, 18 ns on that machine (about 40 ns on recent Intel cores, shorter on older ones).
 * No system call, no lock: progress stays lock-free, since a failed CAS still means another request succeeded.
 */
final class CasBackoff {

    /** Spin-wait hints after one failed CAS (about 9 us on the report's machine); jmh's PaddedCell mirrors it. */
    static final int PAUSES = 512;

    private CasBackoff() {
    }

    static void afterFailedCas() {
        for (int i = 0; i < PAUSES; i++) {
            Thread.onSpinWait();
        }
    }
}
