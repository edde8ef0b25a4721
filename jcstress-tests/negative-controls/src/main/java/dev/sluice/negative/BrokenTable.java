package dev.sluice.negative;

import dev.sluice.Algorithm;
import dev.sluice.Decision;
import dev.sluice.RateLimitConfig;
import dev.sluice.algorithm.PackedAlgorithm;
import dev.sluice.support.OneKey;
import dev.sluice.support.TableHarness;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * BROKEN ON PURPOSE (negative control): a small open-addressing table with {@code KeyTable}'s slot protocol
 * (keyword 0 = empty, linear probing from home slot 0, {@link #DEAD} while a slot changes hands, updaters check the
 * keyword after reading the state and then CAS) with one protection left out:
 * {@link Defect#NO_MONITOR} puts keys without the per-stripe monitor, so two threads may put one key twice;
 * {@link Defect#NO_DEAD_CAS} takes over an idle slot by overwriting it instead of first CASing its state to
 * {@link #DEAD}, so an update of the old key that lands in between is lost. Results as {@link TableHarness}.
 */
final class BrokenTable {

    enum Defect { NO_MONITOR, NO_DEAD_CAS }

    static final long DEAD = Long.MIN_VALUE;
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Defect defect;
    private final PackedAlgorithm algorithm =
            PackedAlgorithm.of(RateLimitConfig.of(Algorithm.FIXED_WINDOW, 8, Duration.ofNanos(OneKey.WINDOW)));
    private final Object monitor = new Object();
    /** Pairs of (keyword, state), two slots per key of capacity. */
    private final long[] words;
    private final int slots;
    private final int capacity;
    private int used;

    BrokenTable(Defect defect, int capacity) {
        this.defect = defect;
        this.capacity = capacity;
        this.slots = 2 * capacity;
        this.words = new long[2 * slots];
    }

    int take(long keyword, long t) {
        for (;;) {
            int slot = findOrPut(keyword, t);
            if (slot < 0) {
                return TableHarness.FULL;
            }
            for (;;) {
                long state = (long) WORDS.getVolatile(words, 2 * slot + 1);
                if (state == DEAD || (long) WORDS.get(words, 2 * slot) != keyword) {
                    break;
                }
                long next = algorithm.acquire(state, t, 1);
                if (next == PackedAlgorithm.DENIED) {
                    return TableHarness.DENIED;
                }
                if (WORDS.compareAndSet(words, 2 * slot + 1, state, next)) {
                    return TableHarness.ADMITTED;
                }
            }
            Thread.onSpinWait();
        }
    }

    int count(long keyword, long t) {
        int slot = find(keyword);
        if (slot < 0) {
            return TableHarness.ABSENT;
        }
        Decision d = new Decision();
        algorithm.describe((long) WORDS.getVolatile(words, 2 * slot + 1), PackedAlgorithm.DENIED, t, 1, d);
        return (int) (d.limit() - d.remaining());
    }

    /** For the arbiter, which runs after every actor. */
    int usedSlots() {
        return used;
    }

    private int find(long keyword) {
        for (int i = 0; i < slots; i++) {
            long k = (long) WORDS.getAcquire(words, 2 * i);
            if (k == 0) {
                return -1;
            }
            if (k == keyword) {
                return i;
            }
        }
        return -1;
    }

    private int findOrPut(long keyword, long t) {
        int found = find(keyword);
        if (found >= 0) {
            return found;
        }
        if (defect == Defect.NO_MONITOR) {
            return put(keyword, t);
        }
        synchronized (monitor) {
            return put(keyword, t);
        }
    }

    private int put(long keyword, long t) {
        for (;;) {
            int idle = -1;
            int empty = -1;
            for (int i = 0; i < slots; i++) {
                long k = (long) WORDS.getVolatile(words, 2 * i);
                if (k == 0) {
                    empty = i;
                    break;
                }
                if (k == keyword) {
                    return i;
                }
                long state = (long) WORDS.getVolatile(words, 2 * i + 1);
                if (idle < 0 && state != DEAD && algorithm.isIdle(state, t)) {
                    idle = i;
                }
            }
            if (idle >= 0) {
                if (defect != Defect.NO_DEAD_CAS) {
                    long old = (long) WORDS.getVolatile(words, 2 * idle + 1);
                    if (old == DEAD || !algorithm.isIdle(old, t)
                            || !WORDS.compareAndSet(words, 2 * idle + 1, old, DEAD)) {
                        continue;
                    }
                }
                WORDS.setRelease(words, 2 * idle, keyword);
                WORDS.setVolatile(words, 2 * idle + 1, algorithm.freshState(t));
                return idle;
            }
            if (empty < 0 || used >= capacity) {
                return -1;
            }
            // An empty slot gets its state before its keyword: a finder that sees the keyword sees the fresh state.
            WORDS.setRelease(words, 2 * empty + 1, algorithm.freshState(t));
            WORDS.setRelease(words, 2 * empty, keyword);
            used++;
            return empty;
        }
    }
}
