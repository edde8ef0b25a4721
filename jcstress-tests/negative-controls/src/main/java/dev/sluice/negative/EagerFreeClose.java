package dev.sluice.negative;

import java.util.concurrent.atomic.AtomicLongArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * BROKEN ON PURPOSE (negative control) of {@code dev.sluice.engine.CloseRace}: the same outcome expectations, run on
 * a one-key fixed-window counter whose {@code close()} frees its memory at once instead of leaving it to
 * reachability. It has the engine's guard (a call reads the memory once and throws IllegalStateException where it
 * is gone), but a call that passed the guard before the close then uses freed memory. Freed memory is modelled on
 * the heap as a word array that is dropped on free, so a use after free faults with a NullPointerException where
 * native memory would crash the JVM. JCStress must report the FORBIDDEN outcome.
 */
@JCStressTest
@Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the call completed normally (before or during close); calls after close throw")
@Outcome(id = "-1, -1", expect = Expect.ACCEPTABLE, desc = "the call started after close and threw IllegalStateException")
@Outcome(expect = Expect.FORBIDDEN, desc = "a denial, another exception, or a call after close that did not throw (expected here: use after free)")
@State
public class EagerFreeClose {

    private static final int CLOSED = -1;
    private static final int OTHER = -2;
    private static final long LIMIT = 4;

    /** A stripe of memory; every access reads its words anew, as native memory is reached through its address. */
    private static final class Memory {
        private AtomicLongArray words = new AtomicLongArray(2);

        long get(int i) {
            return words.get(i);
        }

        boolean compareAndSet(int i, long expected, long value) {
            return words.compareAndSet(i, expected, value);
        }

        void free() {
            words = null;
        }
    }

    private volatile Memory memory = new Memory();
    private int call;

    private int ask() {
        try {
            Memory m = memory;
            if (m == null) {
                throw new IllegalStateException("closed");
            }
            for (;;) {
                long count = m.get(1);
                if (count >= LIMIT) {
                    return 0;
                }
                if (m.compareAndSet(1, count, count + 1)) {
                    return 1;
                }
            }
        } catch (IllegalStateException closed) {
            return CLOSED;
        } catch (RuntimeException other) {
            return OTHER;
        }
    }

    @Actor
    public void ask1() {
        call = ask();
    }

    @Actor
    public void close() {
        Memory m = memory;
        memory = null;
        // The defect: freed while a call that already read the memory may still be inside it.
        m.free();
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = call;
        r.r2 = ask();
    }
}
