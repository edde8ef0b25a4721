package dev.sluice.algorithm;

/** Exact arithmetic on products of two non-negative longs (up to 126 bits), with no allocation. */
final class Wide {

    private Wide() {
    }

    /** {@code a * b <= c * d} for non-negative operands, exactly. */
    static boolean productLessOrEqual(long a, long b, long c, long d) {
        long hi1 = Math.multiplyHigh(a, b);
        long hi2 = Math.multiplyHigh(c, d);
        if (hi1 != hi2) {
            return hi1 < hi2;
        }
        return Long.compareUnsigned(a * b, c * d) <= 0;
    }

    /** {@code floor(a * b / c)} for non-negative operands and {@code c > 0}, when the result fits in a long. */
    static long mulDivFloor(long a, long b, long c) {
        if (Math.multiplyHigh(a, b) == 0 && a * b >= 0) {
            return a * b / c;
        }
        long q = (long) ((double) a * (double) b / (double) c);
        // The estimate is off by a few units at most; walk it to the exact floor with exact comparisons.
        while (q > 0 && !productLessOrEqual(q, c, a, b)) {
            q--;
        }
        while (productLessOrEqual(q + 1, c, a, b)) {
            q++;
        }
        return q;
    }
}
