package dev.sluice.engine;

/** Durations in the units a person reads: "365 days", "1 hour", "2.5 s". */
final class Human {

    private static final long SECOND = 1_000_000_000L;
    private static final long HOUR = 3600 * SECOND;
    private static final long DAY = 24 * HOUR;

    private Human() {
    }

    static String nanos(long nanos) {
        if (nanos >= DAY) {
            return count(nanos / DAY, "day") + (nanos % DAY >= HOUR ? " " + count(nanos % DAY / HOUR, "hour") : "");
        }
        if (nanos >= HOUR) {
            return count(nanos / HOUR, "hour") + (nanos % HOUR >= 60 * SECOND ? " " + nanos % HOUR / (60 * SECOND)
                    + " min" : "");
        }
        if (nanos >= SECOND) {
            return String.format(java.util.Locale.ROOT, "%.3f s", nanos / (double) SECOND);
        }
        return nanos + " ns";
    }

    private static String count(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
