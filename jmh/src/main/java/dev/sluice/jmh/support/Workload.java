package dev.sluice.jmh.support;

import java.util.SplittableRandom;

/** Precomputed key orders, so that a benchmark does no random-number work beyond one index increment. */
public final class Workload {

    /** Length of every key order: a power of two, twice the default key count, and its 8 MiB exceed the caches. */
    public static final int SAMPLES = 1 << 21;
    /** Base of the long keys: ids outside the small-Long cache, as real ids are. */
    public static final long LONG_KEY_BASE = 1L << 32;
    /** The one key of the hot-key benchmarks. */
    public static final long HOT_KEY = LONG_KEY_BASE + 12_345;
    public static final String HOT_STRING_KEY = "user-12345";

    private static final long SEED = 0x5EED_2026L;

    private Workload() {
    }

    /** {@link #SAMPLES} key indices in {@code [0, keys)} drawn from {@code distribution}. */
    public static int[] order(Distribution distribution, int keys) {
        SplittableRandom random = new SplittableRandom(SEED);
        int[] order = new int[SAMPLES];
        if (distribution == Distribution.UNIFORM) {
            for (int i = 0; i < SAMPLES; i++) {
                order[i] = random.nextInt(keys);
            }
            return order;
        }
        double[] cdf = zipfCdf(keys, 1.0);
        for (int i = 0; i < SAMPLES; i++) {
            order[i] = firstAtLeast(cdf, random.nextDouble());
        }
        // Rank r is key r: hash-based stores scatter them anyway, and the report names the hottest key.
        return order;
    }

    /** The string form of key {@code i}: what a gateway would pass (a user or API-key id). */
    public static String name(int i) {
        return "user-" + i;
    }

    public static String[] names(int keys) {
        String[] names = new String[keys];
        for (int i = 0; i < keys; i++) {
            names[i] = name(i);
        }
        return names;
    }

    public static long longKey(int i) {
        return LONG_KEY_BASE + i;
    }

    private static double[] zipfCdf(int keys, double s) {
        double[] cdf = new double[keys];
        double sum = 0;
        for (int r = 0; r < keys; r++) {
            sum += 1.0 / Math.pow(r + 1, s);
            cdf[r] = sum;
        }
        for (int r = 0; r < keys; r++) {
            cdf[r] /= sum;
        }
        return cdf;
    }

    private static int firstAtLeast(double[] cdf, double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
