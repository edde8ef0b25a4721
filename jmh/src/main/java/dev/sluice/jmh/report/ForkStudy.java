package dev.sluice.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The results of runs with several forks per configuration ({@code jmh/contention-study.sh}), each reduced to the
 * median of its forks' means. Contended results on a shared 2-core machine are bimodal from fork to fork, and one
 * thread's results move with the other work on the machine (see {@code jmh/ANALYSIS.md}): the median of several
 * forks is stable where one fork's mean is not.
 */
final class ForkStudy {

    /** One configuration: its result row, and each fork's mean of its measurement iterations, sorted. */
    record Row(Result result, double[] forkMeans) {

        double median() {
            double[] m = forkMeans;
            int n = m.length;
            return n % 2 == 1 ? m[n / 2] : (m[n / 2 - 1] + m[n / 2]) / 2;
        }

        double slowest() {
            return forkMeans[0];
        }

        double fastest() {
            return forkMeans[forkMeans.length - 1];
        }
    }

    final List<Row> rows;

    private ForkStudy(List<Row> rows) {
        this.rows = rows;
    }

    static ForkStudy none() {
        return new ForkStudy(List.of());
    }

    /** This study's rows and then {@code other}'s (the study writes one file per JMH run). */
    ForkStudy with(ForkStudy other) {
        List<Row> all = new ArrayList<>(rows);
        all.addAll(other.rows);
        return new ForkStudy(all);
    }

    /** The study in {@code file}, or none if there is no such file. */
    static ForkStudy read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return none();
        }
        List<Row> rows = new ArrayList<>();
        for (Object row : (List<?>) Json.parse(Files.readString(file, StandardCharsets.UTF_8))) {
            rows.add(row((Map<?, ?>) row));
        }
        return new ForkStudy(rows);
    }

    @SuppressWarnings("unchecked")
    static Row row(Map<?, ?> row) {
        Result result = Result.of((Map<String, Object>) row);
        List<?> forks = (List<?>) ((Map<?, ?>) row.get("primaryMetric")).get("rawData");
        double[] means = new double[forks.size()];
        for (int f = 0; f < means.length; f++) {
            means[f] = ((List<?>) forks.get(f)).stream().mapToDouble(v -> ((Number) v).doubleValue()).average()
                    .orElse(Double.NaN);
        }
        Arrays.sort(means);
        return new Row(result, means);
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    int forks() {
        return rows.stream().mapToInt(r -> r.forkMeans.length).min().orElse(0);
    }

    Optional<Row> hot(String impl, String algorithm, String regime, int threads) {
        return rows.stream().filter(r -> r.result.benchmark.equals("HotKeyBenchmark")
                && r.result.param("impl").equals(impl) && r.result.param("algorithm").equals(algorithm)
                && r.result.param("regime").equals(regime) && r.result.threads == threads).findFirst();
    }

    /** 1M uniform keys of {@code keyType} on 1 thread. */
    Optional<Row> many(String impl, String keyType) {
        return rows.stream().filter(r -> r.result.benchmark.equals("ManyKeysBenchmark") && r.result.threads == 1
                && r.result.param("impl").equals(impl) && r.result.param("keyType").equals(keyType)
                && r.result.param("distribution").equals("UNIFORM")).findFirst();
    }

    /** Floor (a), a clock read and a CAS on one padded cell, on {@code threads} threads. */
    Optional<Row> floor(int threads) {
        return floor("hotClockCasT" + threads);
    }

    /** The floor benchmark method {@code method} (such as {@code hotCasT1}, the CAS alone). */
    Optional<Row> floor(String method) {
        return rows.stream().filter(r -> r.result.benchmark.equals("FloorBenchmark")
                && r.result.method.equals(method)).findFirst();
    }
}
