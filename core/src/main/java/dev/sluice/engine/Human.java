package dev.sluice.engine;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations in the units a person reads, for error messages: "366 days", "1 hour 30 min", "2.500 s", "1 ms".
 * Internal: public only so that the API package's messages read the same as the engine's.
 */
public final class Human {

    private static final long MICRO = 1_000L;
    private static final long MILLI = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;

    private Human() {
    }

    public static String duration(Duration d) {
        return d.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? d.toDays() + " days" : nanos(d.toNanos());
    }

    public static String nanos(long nanos) {
        if (nanos < 0) {
            return "-" + nanos(-nanos);
        }
        if (nanos >= DAY) {
            return count(nanos / DAY, "day") + (nanos % DAY >= HOUR ? " " + count(nanos % DAY / HOUR, "hour") : "");
        }
        if (nanos >= HOUR) {
            return count(nanos / HOUR, "hour") + (nanos % HOUR >= MINUTE ? " " + nanos % HOUR / MINUTE + " min" : "");
        }
        if (nanos >= MINUTE) {
            return nanos / MINUTE + " min" + (nanos % MINUTE >= SECOND ? " " + nanos % MINUTE / SECOND + " s" : "");
        }
        if (nanos >= SECOND) {
            return in(nanos, SECOND, "s");
        }
        if (nanos >= MILLI) {
            return in(nanos, MILLI, "ms");
        }
        if (nanos >= MICRO) {
            return in(nanos, MICRO, "us");
        }
        return nanos + " ns";
    }

    private static String in(long nanos, long unit, String name) {
        return nanos % unit == 0 ? nanos / unit + " " + name
                : String.format(Locale.ROOT, "%.3f %s", nanos / (double) unit, name);
    }

    private static String count(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
