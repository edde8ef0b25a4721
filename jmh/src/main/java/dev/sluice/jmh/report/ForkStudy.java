package dev.sluice.jmh.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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

        /** This configuration with {@code other}'s forks (another round of it) added. */
        Row plus(Row other) {
            double[] all = Arrays.copyOf(forkMeans, forkMeans.length + other.forkMeans.length);
            System.arraycopy(other.forkMeans, 0, all, forkMeans.length, other.forkMeans.length);
            Arrays.sort(all);
            return new Row(result, all);
        }
    }

    final List<Row> rows;
    /** Whether the forks ran in rounds (one fork of every configuration per round), not in a row. */
    final boolean inRounds;

    private ForkStudy(List<Row> rows, boolean inRounds) {
        this.rows = rows;
        this.inRounds = inRounds;
    }

    static ForkStudy none() {
        return new ForkStudy(List.of(), false);
    }

    /** This study's rows and then {@code other}'s (the study writes one file per JMH run). */
    ForkStudy with(ForkStudy other) {
        List<Row> all = new ArrayList<>(rows);
        all.addAll(other.rows);
        return new ForkStudy(all, inRounds || other.inRounds);
    }

    /**
     * The study in {@code file}; or, where the study ran its forks in rounds (one fork of every configuration per
     * round, so that a slow stretch of a shared host falls on all configurations alike), the rounds written beside
     * it as {@code NAME-round1.json}, {@code NAME-round2.json} and so on, each configuration's forks gathered into
     * one row; or none if there is neither.
     */
    static ForkStudy read(Path file) throws IOException {
        boolean inRounds = !Files.exists(file);
        List<Path> parts = inRounds ? rounds(file) : List.of(file);
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Path part : parts) {
            for (Object raw : (List<?>) Json.parse(Files.readString(part, StandardCharsets.UTF_8))) {
                Row row = row((Map<?, ?>) raw);
                rows.merge(configuration(row.result), row, Row::plus);
            }
        }
        return new ForkStudy(new ArrayList<>(rows.values()), inRounds && !parts.isEmpty());
    }

    /** The round files of the study named by {@code file}, in round order. */
    private static List<Path> rounds(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        String name = file.getFileName().toString();
        Pattern round = Pattern.compile(Pattern.quote(name.substring(0, name.length() - ".json".length()))
                + "-round(\\d+)\\.json");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> round.matcher(f.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(f -> roundNumber(round, f))).collect(Collectors.toList());
        }
    }

    private static int roundNumber(Pattern round, Path file) {
        Matcher m = round.matcher(file.getFileName().toString());
        m.matches();
        return Integer.parseInt(m.group(1));
    }

    /** What makes two rows the same configuration: benchmark, mode, threads and parameters. */
    private static String configuration(Result r) {
        return r.benchmark + "." + r.method + " " + r.mode + " " + r.threads + " " + r.params;
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

    /** How the forks were run, for the report: {@code " forks"}, and the rounds where there were rounds. */
    String forksRun() {
        return " forks" + (inRounds ? " (run in rounds of one fork of every configuration, so that a slow stretch "
                + "of the shared host falls on all configurations alike)" : "");
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
