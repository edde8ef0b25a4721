package dev.sluice.jmh.support;

import dev.sluice.Decision;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * What one benchmark thread owns: its position in the precomputed key order, its own {@link Decision}, and a
 * caller-supplied time line that advances by {@link #STEP_NANOS} per request without reading any clock (as a gateway
 * that reads the clock once per batch, or replays a trace, would pass it).
 */
@State(Scope.Thread)
public class Caller {

    /** Simulated time between two requests of one thread: about what one decision costs here. */
    public static final long STEP_NANOS = 20;

    public final Decision decision = new Decision();
    private long now;
    private int position;

    /** A caller outside a benchmark thread (for filling a store in a setup). */
    public static Caller standalone() {
        Caller caller = new Caller();
        caller.now = System.nanoTime();
        return caller;
    }

    @Setup
    public void setUp(ThreadParams threads) {
        now = System.nanoTime();
        // Threads start far apart in the key order so that they do not walk the same keys in lock step.
        position = threads.getThreadIndex() * (Workload.SAMPLES / Math.max(1, threads.getThreadCount()));
    }

    /** The next caller-supplied time, on the system clock's time line. */
    public long tick() {
        now += STEP_NANOS;
        return now;
    }

    /** The next index into a precomputed key order of {@link Workload#SAMPLES} entries. */
    public int next() {
        position = (position + 1) & (Workload.SAMPLES - 1);
        return position;
    }
}
