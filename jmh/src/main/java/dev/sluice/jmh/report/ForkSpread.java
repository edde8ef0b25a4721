package dev.sluice.jmh.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Prints, per result row of a JMH JSON file, the mean of each fork's measurement iterations, sorted, their median,
 * and the ratio of the fastest fork to the slowest: how much of a result's spread lies between forks.
 *
 * <p>Usage: {@code ForkSpread JMH_JSON}.
 */
public final class ForkSpread {

    private ForkSpread() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ForkSpread JMH_JSON");
        }
        System.out.println("| benchmark | params | threads | per-fork means, sorted (M/s) | median | fastest / slowest |");
        System.out.println("|---|---|---:|---|---:|---:|");
        for (ForkStudy.Row row : ForkStudy.read(Path.of(args[0])).rows) {
            StringBuilder means = new StringBuilder();
            for (double m : row.forkMeans()) {
                means.append(means.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", m / 1e6));
            }
            Result r = row.result();
            System.out.println(String.format(Locale.ROOT, "| %s.%s | %s | %d | %s | %.1f | %.2f |", r.benchmark,
                    r.method, r.params.isEmpty() ? "" : r.params.toString(), r.threads, means, row.median() / 1e6,
                    row.fastest() / row.slowest()));
        }
    }
}
