package dev.sluice.jmh.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One JMH result row: benchmark class and method, threads, params, score with error, B/op, percentiles. */
final class Result {

    final String benchmark;
    final String method;
    final String mode;
    final int threads;
    final Map<String, String> params;
    final double score;
    final double error;
    final String unit;
    /** {@code gc.alloc.rate.norm}, NaN when the run had no {@code -prof gc}. */
    final double bytesPerOp;
    final Map<String, Double> percentiles;
    /** The forks' JDK, as JMH records it ({@code 17.0.15}); empty when the row does not say. */
    final String jdkVersion;

    private Result(String benchmark, String method, String mode, int threads, Map<String, String> params,
            double score, double error, String unit, double bytesPerOp, Map<String, Double> percentiles,
            String jdkVersion) {
        this.benchmark = benchmark;
        this.method = method;
        this.mode = mode;
        this.threads = threads;
        this.params = params;
        this.score = score;
        this.error = error;
        this.unit = unit;
        this.bytesPerOp = bytesPerOp;
        this.percentiles = percentiles;
        this.jdkVersion = jdkVersion;
    }

    /** The JDK's feature release (17 for {@code 17.0.15}), 0 when unknown. */
    int jdkFeature() {
        String digits = jdkVersion.replaceFirst("^(\\d+).*$", "$1");
        return digits.matches("\\d+") ? Integer.parseInt(digits) : 0;
    }

    String param(String name) {
        return params.getOrDefault(name, "");
    }

    @SuppressWarnings("unchecked")
    static Result of(Map<String, Object> row) {
        String full = (String) row.get("benchmark");
        int dot = full.lastIndexOf('.');
        String className = full.substring(0, dot);
        String benchmark = className.substring(className.lastIndexOf('.') + 1);
        Map<String, String> params = new LinkedHashMap<>();
        Object rawParams = row.get("params");
        if (rawParams instanceof Map) {
            ((Map<String, Object>) rawParams).forEach((k, v) -> params.put(k, String.valueOf(v)));
        }
        Map<String, Object> primary = (Map<String, Object>) row.get("primaryMetric");
        Map<String, Double> percentiles = new LinkedHashMap<>();
        Object rawPercentiles = primary.get("scorePercentiles");
        if (rawPercentiles instanceof Map) {
            ((Map<String, Object>) rawPercentiles).forEach((k, v) -> percentiles.put(k, number(v)));
        }
        double bytesPerOp = Double.NaN;
        Object secondary = row.get("secondaryMetrics");
        if (secondary instanceof Map) {
            Object norm = ((Map<String, Object>) secondary).get("gc.alloc.rate.norm");
            if (norm instanceof Map) {
                bytesPerOp = number(((Map<String, Object>) norm).get("score"));
            }
        }
        return new Result(benchmark, full.substring(dot + 1), (String) row.get("mode"),
                (int) number(row.get("threads")), params, number(primary.get("score")),
                number(primary.get("scoreError")), (String) primary.get("scoreUnit"), bytesPerOp, percentiles,
                row.get("jdkVersion") == null ? "" : String.valueOf(row.get("jdkVersion")));
    }

    @SuppressWarnings("unchecked")
    static List<Result> all(Object parsed) {
        return ((List<Object>) parsed).stream().map(r -> of((Map<String, Object>) r)).collect(
                java.util.stream.Collectors.toList());
    }

    private static double number(Object v) {
        if (v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof String) {
            try {
                return Double.parseDouble((String) v);
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }
}
