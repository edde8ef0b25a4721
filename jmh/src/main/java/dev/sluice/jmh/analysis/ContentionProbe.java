package dev.sluice.jmh.analysis;

import dev.sluice.Algorithm;
import dev.sluice.Clock;
import dev.sluice.RateLimitConfig;
import dev.sluice.RateLimiter;
import dev.sluice.jmh.support.Regime;
import dev.sluice.reference.ReferenceRateLimiter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A diagnostic, not a benchmark: why the contended hot-key results of the JMH report vary by 2x from fork to fork.
 *
 * <p>Two threads, in one JVM, run four short tasks in turn, over and over: the one-way cost of moving a cache line
 * between them (ping-pong on one word), the floor (a) loop (clock read plus CAS on one word), Sluice's token bucket
 * and the reference's, both on one hot key in the ADMIT regime. Each task runs {@code sliceMillis}, so the four
 * numbers of one cycle are taken within a fraction of a second of each other, under the same placement of the two
 * threads on the machine. If the contended numbers move with the line-transfer cost from cycle to cycle, the
 * variation is the machine's; the Sluice/reference ratio within a cycle is then the comparison that holds.
 *
 * <p>Usage: {@code java -cp jmh/target/benchmarks.jar dev.sluice.jmh.analysis.ContentionProbe [seconds] [sliceMillis]}
 * (defaults 60 and 100). The JMH benchmarks stay the source of every number in the report; this class only explains
 * their spread.
 */
public final class ContentionProbe {

    private static final int PINGPONG = 0;
    private static final int FLOOR = 1;
    private static final int SLUICE = 2;
    private static final int REFERENCE = 3;
    private static final String[] NAMES = {"line transfer", "floor (a)", "Sluice", "reference"};
    private static final long HOT_KEY = 42;

    /** Slots 16 apart (128 bytes): the ping-pong word and the floor's word share no line with each other. */
    private final AtomicLongArray words = new AtomicLongArray(64);
    private static final int PING = 16;
    private static final int CELL = 40;

    private final RateLimiter sluice;
    private final RateLimiter reference;
    private final long sliceNanos;
    private final CyclicBarrier barrier = new CyclicBarrier(2);
    /** Per thread and task, the operations of the current slice. */
    private final long[][] counts = new long[2][4];
    private volatile int task;

    private ContentionProbe(long sliceNanos) {
        RateLimitConfig config = Regime.ADMIT.config(Algorithm.TOKEN_BUCKET);
        this.sluice = RateLimiter.builder(config).clock(Clock.system()).maxKeys(16).build();
        this.reference = new ReferenceRateLimiter(config, Clock.system());
        this.sliceNanos = sliceNanos;
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        long slice = args.length > 1 ? Long.parseLong(args[1]) : 100;
        if (seconds < 1 || slice < 10) {
            throw new IllegalArgumentException("seconds must be >= 1 and sliceMillis >= 10");
        }
        new ContentionProbe(slice * 1_000_000L).run(seconds * 1_000_000_000L);
    }

    private void run(long totalNanos) throws Exception {
        int cycles = (int) Math.max(1, totalNanos / (4 * sliceNanos));
        Thread other = new Thread(() -> work(1, cycles), "probe-1");
        other.setDaemon(true);
        other.start();
        System.out.printf(Locale.ROOT, "# %d cycles of 4 x %d ms, 2 threads%n", cycles, sliceNanos / 1_000_000);
        System.out.println("cycle\tline_ns\tfloor_Mops\tsluice_Mops\treference_Mops\tsluice/reference");
        double[][] rows = new double[cycles][];
        for (int c = 0; c < cycles; c++) {
            rows[c] = cycle(c);
        }
        other.join();
        summarize(rows);
        sluice.close();
    }

    /** One cycle as thread 0; returns line ns, then the Mops of floor, Sluice, reference. */
    private double[] cycle(int c) throws Exception {
        double[] row = new double[4];
        for (int t = 0; t < 4; t++) {
            task = t;
            slice(0);
            long ops = counts[0][t] + counts[1][t];
            // Ping-pong: one operation is one move of the line; the others: decisions per microsecond.
            row[t] = t == PINGPONG ? sliceNanos / (double) Math.max(1, ops) : ops / (sliceNanos / 1000.0);
        }
        System.out.printf(Locale.ROOT, "%d\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f%n", c, row[0], row[1], row[2], row[3],
                row[2] / row[3]);
        return row;
    }

    private void work(int me, int cycles) {
        try {
            for (int c = 0; c < cycles; c++) {
                for (int t = 0; t < 4; t++) {
                    slice(me);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Both threads run the current task for one slice; the barrier starts and ends it for both. */
    private void slice(int me) throws Exception {
        barrier.await();
        int t = task;
        long end = System.nanoTime() + sliceNanos;
        long ops;
        switch (t) {
            case PINGPONG:
                ops = pingPong(me, end);
                break;
            case FLOOR:
                ops = floor(end);
                break;
            case SLUICE:
                ops = sluice(end);
                break;
            default:
                ops = reference(end);
                break;
        }
        counts[me][t] = ops;
        barrier.await();
        if (t == PINGPONG && me == 0) {
            words.set(PING, 0); // before the next slice's barrier: the next ping-pong starts on thread 0's turn
        }
    }

    /** Thread 0 moves the word from even to odd, thread 1 from odd to even: each move pulls the line across. */
    private long pingPong(int me, long end) {
        long moves = 0;
        long spins = 0;
        while (true) {
            long v = words.get(PING);
            if ((v & 1) == me) {
                // Volatile write: the other thread's next read must see it, which moves the line to that core.
                words.set(PING, v + 1);
                moves++;
            } else if ((++spins & 63) == 0 && System.nanoTime() > end) {
                return moves; // each thread stops on its own clock, also when the other has stopped already
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private long floor(long end) {
        long ops = 0;
        long now;
        do {
            now = System.nanoTime();
            long old = words.get(CELL);
            // Volatile read, then CAS: as FloorBenchmark's hotClockCas.
            words.compareAndSet(CELL, old, Math.max(old, now) + 1);
            ops++;
        } while (now < end);
        return ops;
    }

    // sluice() and reference() are the same loop on purpose: each keeps its own call site, which sees one
    // receiver class only, as each JMH fork does.
    private long sluice(long end) {
        RateLimiter limiter = sluice;
        long ops = 0;
        do {
            limiter.tryAcquire(HOT_KEY);
            ops++;
        } while ((ops & 15) != 0 || System.nanoTime() < end);
        return ops;
    }

    private long reference(long end) {
        RateLimiter limiter = reference;
        long ops = 0;
        do {
            limiter.tryAcquire(HOT_KEY);
            ops++;
        } while ((ops & 15) != 0 || System.nanoTime() < end);
        return ops;
    }

    /** Splits the cycles at the widest gap of the line-transfer cost and prints medians per group. */
    private static void summarize(double[][] rows) {
        // The first cycles include the JIT's warmup.
        double[][] kept = Arrays.copyOfRange(rows, Math.min(rows.length - 1, rows.length / 10), rows.length);
        double[] line = column(kept, PINGPONG);
        double[] sorted = line.clone();
        Arrays.sort(sorted);
        double cut = sorted[sorted.length - 1] + 1;
        double widest = 0;
        for (int i = 1; i < sorted.length; i++) {
            // A gap counts only if it is wide relative to the values around it (a factor, not ns).
            double gap = sorted[i] / sorted[i - 1];
            if (gap > widest && gap > 1.3) {
                widest = gap;
                cut = (sorted[i] + sorted[i - 1]) / 2;
            }
        }
        System.out.printf(Locale.ROOT, "%n# %d cycles kept (first 10%% dropped as warmup)%n", kept.length);
        System.out.printf(Locale.ROOT, "# correlation of line transfer ns with: floor %.2f, Sluice %.2f, reference "
                + "%.2f%n", correlation(line, column(kept, FLOOR)), correlation(line, column(kept, SLUICE)),
                correlation(line, column(kept, REFERENCE)));
        List<double[]> fast = new ArrayList<>();
        List<double[]> slow = new ArrayList<>();
        for (double[] r : kept) {
            (r[PINGPONG] < cut ? fast : slow).add(r);
        }
        printGroup("cycles with line transfer < " + String.format(Locale.ROOT, "%.1f ns", cut), fast);
        if (!slow.isEmpty()) {
            printGroup("cycles with line transfer >= " + String.format(Locale.ROOT, "%.1f ns", cut), slow);
        }
        printGroup("all kept cycles", Arrays.asList(kept));
    }

    private static void printGroup(String title, List<double[]> group) {
        double[][] rows = group.toArray(new double[0][]);
        double[] ratio = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            ratio[i] = rows[i][SLUICE] / rows[i][REFERENCE];
        }
        System.out.printf(Locale.ROOT, "# %s: %d cycles; medians: %s %.1f ns, %s %.2f M/s, %s %.2f M/s, %s %.2f M/s,"
                + " Sluice/reference %.2f (quartiles %.2f-%.2f)%n", title, rows.length,
                NAMES[0], median(column(rows, 0)), NAMES[1], median(column(rows, 1)), NAMES[2],
                median(column(rows, 2)), NAMES[3], median(column(rows, 3)), median(ratio), quantile(ratio, 0.25),
                quantile(ratio, 0.75));
    }

    private static double[] column(double[][] rows, int i) {
        double[] c = new double[rows.length];
        for (int r = 0; r < rows.length; r++) {
            c[r] = rows[r][i];
        }
        return c;
    }

    static double median(double[] v) {
        return quantile(v, 0.5);
    }

    /** Linear interpolation between the closest ranks. */
    static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        double pos = q * (s.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(s.length - 1, lo + 1);
        return s[lo] + (s[hi] - s[lo]) * (pos - lo);
    }

    /** Pearson's correlation coefficient; 0 when either series is constant. */
    static double correlation(double[] x, double[] y) {
        double mx = Arrays.stream(x).average().orElse(0);
        double my = Arrays.stream(y).average().orElse(0);
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxx == 0 || syy == 0 ? 0 : sxy / Math.sqrt(sxx * syy);
    }
}
