package dev.sluice.jmh.report;

import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns a results directory (JMH JSON files {@code jmh*.json}, {@code memory.tsv}, {@code meta.properties}, JFR
 * recordings under {@code jfr/}) into {@code REPORT.md} and PNG charts in the same directory.
 *
 * <p>Usage: {@code ReportGenerator RESULTS_DIR [ANALYSIS_MD]}; the optional markdown file is included verbatim as
 * the hand-written analysis of the run.
 */
public final class ReportGenerator {

    /** The JFR section as last summarised from recordings (see {@link #jfrSection}). */
    static final String JFR_SUMMARY = "jfr-top.md";

    static final String[] SLUICE_AND_REFERENCE = {"SLUICE", "SLUICE_CALLER_TIME", "REFERENCE"};
    static final String[] COMPETITORS = {"BUCKET4J_LOCK_FREE", "BUCKET4J_SYNCHRONIZED", "RESILIENCE4J", "GUAVA"};
    static final String[] MANY_KEYS_IMPLS = {"SLUICE", "SLUICE_CALLER_TIME", "SLUICE_DECISION", "REFERENCE",
        "BUCKET4J_LOCK_FREE", "BUCKET4J_SYNCHRONIZED", "RESILIENCE4J", "GUAVA"};
    /** Below this, an allocation rate is JMH's measurement noise (profiler bookkeeping spread over all ops). */
    static final double ZERO_BYTES = 0.5;
    /** Where {@code jmh/contention-study.sh} writes, in the results directory: 2-8 threads, 1, many keys, rivals. */
    static final String STUDY = "contention/forks.json";
    static final String STUDY_ONE_THREAD = "contention/forks-t1.json";
    static final String STUDY_MANY_KEYS = "contention/forks-many.json";
    static final String STUDY_COMPETITORS = "contention/forks-competitors.json";

    private final List<Result> results;
    private final List<MemoryRow> memory;
    private final Properties meta;
    private final Map<String, Object> firstRow;
    /** Each distinct fork command line (JVM arguments) and the benchmark classes that ran with it. */
    private final Map<String, TreeSet<String>> jvmArgs;
    private final Path dir;
    /** Several forks per contended configuration, when {@code contention/forks.json} is there. */
    private final ForkStudy study;
    /** Sluice's token bucket and the competitors on the hot key, several forks each, in one run of the study. */
    private final ForkStudy rivals;
    /** The first JDK release whose forks can run the FFM backend. */
    private static final int FFM_FEATURE = 22;

    private final StringBuilder md = new StringBuilder();
    private final List<String[]> targets = new ArrayList<>();

    ReportGenerator(List<Result> results, List<MemoryRow> memory, Properties meta, Map<String, Object> firstRow,
            Map<String, TreeSet<String>> jvmArgs, Path dir, ForkStudy study, ForkStudy rivals) {
        this.results = results;
        this.memory = memory;
        this.meta = meta;
        this.firstRow = firstRow;
        this.jvmArgs = jvmArgs;
        this.dir = dir;
        this.study = study;
        this.rivals = rivals;
    }

    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path dir = Path.of(args.length > 0 ? args[0] : "jmh/results");
        List<Result> results = new ArrayList<>();
        Map<String, Object> first = new LinkedHashMap<>();
        Map<String, TreeSet<String>> jvmArgs = new LinkedHashMap<>();
        List<Path> jsons;
        try (Stream<Path> files = Files.list(dir)) {
            jsons = files.filter(p -> p.getFileName().toString().matches("jmh.*\\.json")).sorted()
                    .collect(Collectors.toList());
        }
        for (Path json : jsons) {
            Object parsed = Json.parse(Files.readString(json));
            if (parsed instanceof List && !((List<?>) parsed).isEmpty()) {
                if (first.isEmpty()) {
                    ((Map<?, ?>) ((List<?>) parsed).get(0)).forEach((k, v) -> first.put(String.valueOf(k), v));
                }
                results.addAll(Result.all(parsed));
                for (Object row : (List<?>) parsed) {
                    Map<?, ?> r = (Map<?, ?>) row;
                    String name = String.valueOf(r.get("benchmark"));
                    String[] parts = name.split("\\.");
                    jvmArgs.computeIfAbsent(String.valueOf(r.get("jvmArgs")), k -> new TreeSet<>())
                            .add(parts[parts.length - 2]);
                }
            }
        }
        Path memoryFile = dir.resolve("memory.tsv");
        List<MemoryRow> memory = Files.exists(memoryFile) ? MemoryRow.parse(Files.readAllLines(memoryFile))
                : List.of();
        Properties meta = new Properties();
        Path metaFile = dir.resolve("meta.properties");
        if (Files.exists(metaFile)) {
            try (Reader r = Files.newBufferedReader(metaFile, StandardCharsets.UTF_8)) {
                meta.load(r);
            }
        }
        ReportGenerator generator = new ReportGenerator(results, memory, meta, first, jvmArgs, dir,
                ForkStudy.read(dir.resolve(STUDY)).with(ForkStudy.read(dir.resolve(STUDY_ONE_THREAD)))
                        .with(ForkStudy.read(dir.resolve(STUDY_MANY_KEYS))),
                ForkStudy.read(dir.resolve(STUDY_COMPETITORS)));
        String analysis = args.length > 1 && Files.exists(Path.of(args[1])) ? Files.readString(Path.of(args[1])) : "";
        Files.writeString(dir.resolve("REPORT.md"), generator.render(analysis));
        System.out.println("wrote " + dir.resolve("REPORT.md") + " from " + results.size() + " results");
    }

    String render(String analysis) throws IOException {
        header();
        StringBuilder body = new StringBuilder();
        StringBuilder saved = new StringBuilder(md);
        md.setLength(0);
        hotKey();
        contendedOverForks();
        competitorsOverForks();
        manyKeys();
        manyKeysOverForks();
        service();
        latency();
        backends();
        floors();
        memorySection();
        charts();
        body.append(md);
        md.setLength(0);
        md.append(saved);
        targetsSection();
        if (!analysis.isBlank()) {
            md.append("\n## Analysis\n\n").append(analysis.strip()).append("\n");
        }
        jfrSection();
        md.append(body);
        return md.toString();
    }

    // ---------------------------------------------------------------- sections

    private void header() {
        md.append("# Sluice benchmark report\n\n");
        md.append("Generated by `dev.sluice.jmh.report.ReportGenerator` from the JMH JSON and memory measurements in "
                + "this directory. Profile: **").append(meta.getProperty("profile", "?")).append("**, run ")
                .append(meta.getProperty("date", "?")).append(".\n\n");
        md.append("## Machine and command\n\n");
        row("what", "value");
        row("---", "---");
        row("CPU", meta.getProperty("cpu", "?"));
        row("cores (nproc)", meta.getProperty("cores", "?"));
        row("memory", meta.getProperty("memory", "?"));
        row("OS", meta.getProperty("os", "?"));
        row("JDK", str(firstRow.get("jdkVersion")) + ", " + str(firstRow.get("vmName")) + " "
                + str(firstRow.get("vmVersion")));
        jvmArgs.forEach((args, classes) -> row("JVM flags of the forks", "`" + args + "`: "
                + String.join(", ", classes)));
        row("JMH", str(firstRow.get("jmhVersion")));
        row("command", "`" + meta.getProperty("command", "?") + "`");
        row("JMH options", "`" + meta.getProperty("jmhOptions", "?") + "`");
        row("duration", meta.getProperty("duration", "?"));
        if (!meta.getProperty("note", "").isBlank()) {
            row("note", "**" + meta.getProperty("note") + "**");
        }
        md.append("\nEvery JMH run here used `-prof gc`: B/op is `gc.alloc.rate.norm`. Throughput is ops/s summed "
                + "over all threads of a run, ± the 99.9% confidence half-width JMH reports (NaN with one "
                + "iteration). \"× ref\" is the throughput divided by `ReferenceRateLimiter`'s in the same scenario; "
                + "\"× floor\" is how many times the floor's throughput exceeds Sluice's (1.00 = at the floor). "
                + "All implementations ran in one session on the same machine; other work shared the machine's two "
                + "cores, so treat small differences with care.\n");
    }

    private void targetsSection() {
        evaluateTargets();
        md.append("\n## Targets\n\n");
        String profile = meta.getProperty("profile", "");
        if (profile.equals("quick") || profile.equals("smoke")) {
            md.append("This is a **").append(profile).append("** run: one fork of short iterations per result, so a "
                    + "target's status here moves with the host from one run to the next. The targets are judged on "
                    + "the committed full run and its several-fork study (`jmh/results/REPORT.md` as committed, read "
                    + "in `jmh/ANALYSIS.md`).\n\n");
        }
        md.append("| target | measured | status |\n|---|---|---|\n");
        for (String[] t : targets) {
            md.append("| ").append(t[0]).append(" | ").append(t[1]).append(" | ").append(t[2]).append(" |\n");
        }
        boundsFromThisRun();
    }

    /**
     * What this run's own numbers say about the targets that depend on more than Sluice: a ratio to another
     * implementation cannot exceed what the floor leaves once that implementation is itself near the floor.
     */
    private void boundsFromThisRun() {
        List<String> lines = new ArrayList<>();
        // One thread's nanoseconds per decision: the medians of section 1b where the study ran one thread.
        Optional<Double> floorA = oneThreadNs(study.floor(1), hotFloor("SLUICE", 1));
        Optional<Double> floorCas = oneThreadNs(study.floor("hotCasT1"), hotFloor("SLUICE_CALLER_TIME", 1));
        Optional<Double> refTb = oneThreadNs("REFERENCE", "TOKEN_BUCKET", "ADMIT");
        Optional<Double> tb = oneThreadNs("SLUICE", "TOKEN_BUCKET", "ADMIT");
        Optional<Double> tbCaller = oneThreadNs("SLUICE_CALLER_TIME", "TOKEN_BUCKET", "ADMIT");
        if (floorA.isPresent() && refTb.isPresent() && tb.isPresent()) {
            double floorNs = floorA.get();
            double refNs = refTb.get();
            boolean belowFloor = refNs / 1.2 < floorNs;
            lines.add(fmt("Hot key, 1 thread, own clock: floor (a), one `System.nanoTime()` and one CAS, costs %.1f ns "
                    + "here; the reference's token bucket costs %.1f ns (%.2fx the floor: an uncontended monitor is "
                    + "one CAS too), Sluice's %.1f ns (%.2fx). Being 1.2x faster than the reference would take %.1f ns, "
                    + "%s", floorNs, refNs, refNs / floorNs, tb.get(), tb.get() / floorNs, refNs / 1.2,
                    belowFloor
                            ? "below the floor itself: on this machine the clock read is most of every decision, and "
                                    + "the target's premise (a reference at 44 ns over a 32 ns floor) does not hold."
                            : "above the floor: the target's premise (a reference at 44 ns over a 32 ns floor) holds "
                                    + "in this run."));
            for (String algorithm : values("HotKeyBenchmark", "algorithm")) {
                for (String regime : List.of("ADMIT", "DENY")) {
                    Optional<Double> s = oneThreadNs("SLUICE", algorithm, regime);
                    Optional<Double> ref = oneThreadNs("REFERENCE", algorithm, regime);
                    Optional<Double> caller = oneThreadNs("SLUICE_CALLER_TIME", algorithm, regime);
                    if (s.isPresent() && caller.isPresent() && tbCaller.isPresent() && s.get() / floorNs > 1.15) {
                        lines.add(aboveFloorA(algorithm, regime, s.get(), floorNs, caller.get(), tbCaller.get(),
                                tb.get() / floorNs <= 1.15));
                    }
                    if (s.isPresent() && ref.isPresent() && ref.get() / s.get() < 1.2) {
                        lines.add(fmt("%s/%s, 1 thread, own clock: the reference takes %.1f ns (%.2fx floor (a)), "
                                + "Sluice %.1f ns (%.2fx); 1.2x the reference would take %.1f ns, %s floor (a).",
                                algorithm, regime, ref.get(), ref.get() / floorNs, s.get(), s.get() / floorNs,
                                ref.get() / 1.2, ref.get() / 1.2 < floorNs ? "below" : "above"));
                    }
                }
            }
        }
        if (floorCas.isPresent() && refTb.isPresent() && tbCaller.isPresent()) {
            lines.add(fmt("Hot key, caller-supplied time: Sluice's token bucket decides in %.1f ns without a clock "
                    + "read (floor: %.1f ns for a CAS alone); 3x the reference would be %.1f ns. What a decision "
                    + "does beyond the CAS: the seeded key mix, the probe of the slot, the state read and the "
                    + "keyword re-check that validates it, the GCRA step.", tbCaller.get(), floorCas.get(),
                    refTb.get() / 3));
        }
        Optional<Double> many = manyNs("SLUICE", "LONG");
        Optional<Double> manyRef = manyNs("REFERENCE", "LONG");
        Optional<Double> floorB = coldFloorNs("coldClockCasT1");
        if (many.isPresent() && manyRef.isPresent() && floorB.isPresent()) {
            double f = floorB.get();
            lines.add(fmt("1M uniform long keys, own clock: floor (b), a clock read and a CAS on a random slot of a "
                    + "table as large as Sluice's, costs %.0f ns (the cache miss cannot overlap the clock read); "
                    + "Sluice %.0f ns (%.2fx the floor), the reference %.0f ns (%.2fx). With Sluice at its floor, "
                    + "3x the reference would need the reference at 3x the floor or more.", f, many.get(),
                    many.get() / f, manyRef.get(), manyRef.get() / f));
        }
        Optional<Double> strings = manyNs("SLUICE", "STRING");
        Optional<Double> stringsRef = manyNs("REFERENCE", "STRING");
        Optional<Double> floorC = coldFloorNs("coldStringClockCasT1");
        Optional<Double> floorBytes = coldFloorNs("coldStringBytesClockCasT1");
        if (strings.isPresent() && stringsRef.isPresent() && floorC.isPresent() && floorBytes.isPresent()) {
            double s = strings.get();
            double ref = stringsRef.get();
            double c = floorC.get();
            double bytes = floorBytes.get();
            lines.add(fmt("1M uniform String keys: floor (c), the request's string from the same array of a million "
                    + "names, its cached `hashCode()`, a clock read and a CAS on the slot it selects in a table of "
                    + "Sluice's size, costs %.0f ns; hashing the string's characters instead (what a placement that "
                    + "callers cannot steer must read; `hashCode()` can be collided at will) costs %.0f ns. Sluice "
                    + "%.0f ns (%.2fx the character floor, %.2fx floor (c)), the reference %.0f ns (%.2fx floor (c)). "
                    + "2x the reference would be %.0f ns, %s the character floor.", c, bytes, s, s / bytes, s / c,
                    ref, ref / c, ref / 2, ref / 2 < bytes ? "below" : "above"));
        } else if (strings.isPresent() && stringsRef.isPresent()) {
            lines.add(fmt("1M uniform String keys: Sluice %.0f ns, the reference %.0f ns.", strings.get(),
                    stringsRef.get()));
        }
        competitorCeiling(floorA, floorCas).ifPresent(lines::add);
        Optional<ForkStudy.Row> log8 = study.hot("SLUICE", "SLIDING_WINDOW_LOG", "ADMIT", 8);
        Optional<ForkStudy.Row> log8Ref = study.hot("REFERENCE", "SLIDING_WINDOW_LOG", "ADMIT", 8);
        if (log8.isPresent() && log8Ref.isPresent() && log8.get().median() / log8Ref.get().median() < 2) {
            lines.add(fmt("Sliding window log, 8 threads on 2 cores, admitted: %.2fx the reference (section 1b). A log "
                    + "admission changes the header and a ring entry together, which Sluice serialises per key with "
                    + "a claim bit (see `SlidingLogLimiter`): the threads take turns, as on the reference's monitor. "
                    + "A waiter spins twice, then yields its core, so that a claim holder preempted with more threads "
                    + "than cores runs again at once; its ceiling is one thread's admission rate.",
                    log8.get().median() / log8Ref.get().median()));
        }
        md.append("\n### Bounds this run's own numbers put on the targets\n\n");
        for (String line : lines) {
            md.append("- ").append(line).append('\n');
        }
    }

    /**
     * How many hot-key scenarios below 5x a competitor would need Sluice above what any limiter that reads the clock
     * on every call can do on this machine: {@code cores / clock read} decisions per second, the clock read being
     * floor (a) less the CAS alone. Admitting is held to the same ceiling, not to floor (a) on as many threads: a CAS
     * loop that backs off after a failure keeps the line on one core for several admissions and can pass that floor.
     */
    private Optional<String> competitorCeiling(Optional<Double> floorA, Optional<Double> floorCas) {
        if (floorA.isEmpty() || floorCas.isEmpty()) {
            return Optional.empty();
        }
        double clockNs = floorA.get() - floorCas.get();
        int cores = Integer.parseInt(meta.getProperty("cores", "2"));
        double perCore = 1e9 / clockNs;
        int below = 0;
        int beyond = 0;
        for (HotPair p : competitorPairs()) {
            if (p.competitor.equals("GUAVA") || p.ratio() >= 5) {
                continue;
            }
            below++;
            if (5 * p.other > Math.min(cores, p.threads) * perCore) {
                beyond++;
            }
        }
        return below == 0 ? Optional.empty() : Optional.of(fmt("5x the competitors (Bucket4j, Resilience4j): of "
                + "the %d hot-key scenarios below 5x, %d would need Sluice above the ceiling of any limiter that reads "
                + "the clock on every call: one clock read (floor (a) less the CAS alone: %.1f ns) per decision "
                + "on each of min(threads, %d cores), %.1f M/s a core.", below, beyond, clockNs, cores,
                perCore / 1e6));
    }

    /**
     * Why a one-thread own-clock result is above 1.15x floor (a): the algorithm's own work, when its decision without
     * the clock read takes longer than the token bucket's; else, when the token bucket is within 1.15x, the spread
     * of its forks (a decision that does no more work than one that meets is not held above the floor by its work).
     */
    private String aboveFloorA(String algorithm, String regime, double ns, double floorNs, double callerNs,
            double tbCallerNs, boolean tokenBucketWithin) {
        String head = fmt("%s/%s, 1 thread, own clock: %.1f ns, %.2fx floor (a)", algorithm, regime, ns, ns / floorNs);
        boolean tokenBucketItself = algorithm.equals("TOKEN_BUCKET") && regime.equals("ADMIT");
        if (!tokenBucketItself && tokenBucketWithin && callerNs <= tbCallerNs) {
            String forks = study.hot("SLUICE", algorithm, regime, 1)
                    .map(r -> fmt(" (its forks: %.1f to %.1f ns)", 1e9 / r.fastest(), 1e9 / r.slowest())).orElse("");
            return fmt("%s%s. Without the clock read it takes %.1f ns, no more than the token bucket's %.1f ns, which "
                    + "is within 1.15x with its own clock: on these medians the algorithm's own work does not explain "
                    + "this miss; the spread of its own-clock forks does.", head, forks, callerNs, tbCallerNs);
        }
        String tokenBucket = tokenBucketItself ? "" : fmt(", the token bucket %.1f ns", tbCallerNs);
        return fmt("%s. Without the clock read it takes %.1f ns%s: what is left above the floor is the algorithm's own "
                + "work.", head, callerNs, tokenBucket);
    }

    /** {@link #oneThreadNs(Optional, Optional)} of a hot-key configuration. */
    private Optional<Double> oneThreadNs(String impl, String algorithm, String regime) {
        return oneThreadNs(study.hot(impl, algorithm, regime, 1), hot(impl, algorithm, regime, 1));
    }

    /** Nanoseconds per decision of one thread: the study's median if it has the row, else section 1's result. */
    private static Optional<Double> oneThreadNs(Optional<ForkStudy.Row> median, Optional<Result> oneFork) {
        return median.map(r -> 1e9 / r.median()).or(() -> oneFork.map(ReportGenerator::ns));
    }

    /** Nanoseconds per request on 1M uniform keys, 1 thread: the study's median if it has the row, else section 2. */
    private Optional<Double> manyNs(String impl, String keyType) {
        return oneThreadNs(study.many(impl, keyType), many(impl, keyType, "UNIFORM", 1));
    }

    /** Nanoseconds of a one-thread cold floor on uniform keys: the study's median if it has it, else section 6. */
    private Optional<Double> coldFloorNs(String method) {
        return oneThreadNs(study.floor(method), coldFloorRow(method, "UNIFORM"));
    }

    private static double ns(Result r) {
        // Throughput summed over threads: a thread's decision takes threads / score seconds.
        return 1e9 * r.threads / r.score;
    }

    private void hotKey() {
        md.append("\n## 1. One hot key, 1 to 8 threads\n\n");
        md.append("Every thread asks for the same key. ADMIT: a limit far above the offered rate (the cost of a "
                + "yes; the sliding window counter's packed layout caps it near 4M/s, so part of its requests are "
                + "denied); DENY: 1 per hour (the cost of a no). Competitors implement a token bucket only: their "
                + "rows are under TOKEN_BUCKET and their ratio is to the reference's token bucket. "
                + "SLUICE_CALLER_TIME gets the time from the caller (no clock read), its floor is the CAS alone.\n");
        for (String regime : List.of("ADMIT", "DENY")) {
            md.append("\n### ").append(regime).append("\n\n");
            md.append("| algorithm | implementation | threads | ops/s | ± | × ref | B/op | × floor |\n");
            md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
            for (String algorithm : values("HotKeyBenchmark", "algorithm")) {
                List<String> impls = new ArrayList<>(List.of(SLUICE_AND_REFERENCE));
                if ("TOKEN_BUCKET".equals(algorithm)) {
                    impls.addAll(List.of(COMPETITORS));
                }
                for (String impl : impls) {
                    for (Result r : hotRows(impl, algorithm, regime)) {
                        Optional<Result> ref = hot("REFERENCE", algorithm, regime, r.threads);
                        Optional<Result> floor = hotFloor(impl, r.threads);
                        md.append("| ").append(algorithm).append(" | ").append(impl).append(" | ").append(r.threads)
                                .append(" | ").append(ops(r.score)).append(" | ").append(ops(r.error)).append(" | ")
                                .append(ratio(ref.map(x -> r.score / x.score))).append(" | ")
                                .append(bytes(r.bytesPerOp)).append(" | ")
                                .append(ratio(floor.map(f -> f.score / r.score))).append(" |\n");
                    }
                }
            }
        }
    }

    private void contendedOverForks() {
        if (study.isEmpty()) {
            return;
        }
        md.append("\n## 1b. One hot key: median of ").append(study.forks()).append(" forks\n\n");
        md.append("From `jmh/contention-study.sh` (its logs and JSON are in `contention/`): the benchmarks of section 1 "
                + "for SLUICE and REFERENCE on 2, 4 and 8 threads, and for SLUICE, SLUICE_CALLER_TIME and REFERENCE "
                + "on 1 thread, with floor (a) (and the CAS alone for caller time), each in ").append(study.forks())
                .append(study.forksRun()).append(" of 1 x 1 s warmup and 2 x 1 s measurement. On this machine a "
                + "contended result can land on one of two levels from one fork to the next, about 2x apart, when "
                + "the cost of moving a cache line between the two vCPUs changes over time (see the analysis), "
                + "and one thread's results move with the other work on the shared host. One fork per "
                + "configuration, as in section 1, can pair a slow Sluice fork with a fast reference fork or the "
                + "other way round; the median of several forks does not. The hot-key targets are judged here.\n\n");
        md.append("| algorithm | regime | implementation | threads | Sluice median | Sluice forks | reference median "
                + "| reference forks | × ref | × floor |\n|---|---|---|---:|---:|---|---:|---|---:|---:|\n");
        for (String regime : List.of("ADMIT", "DENY")) {
            for (ForkStudy.Row r : study.rows) {
                Result s = r.result();
                String impl = s.param("impl");
                if (!s.benchmark.equals("HotKeyBenchmark") || !impl.startsWith("SLUICE")
                        || !s.param("regime").equals(regime)) {
                    continue;
                }
                Optional<ForkStudy.Row> ref = study.hot("REFERENCE", s.param("algorithm"), regime, s.threads);
                Optional<ForkStudy.Row> floor = impl.equals("SLUICE_CALLER_TIME")
                        ? study.floor("hotCasT" + s.threads) : study.floor(s.threads);
                md.append("| ").append(s.param("algorithm")).append(" | ").append(regime).append(" | ").append(impl)
                        .append(" | ").append(s.threads).append(" | ").append(ops(r.median())).append(" | ")
                        .append(forkRange(r))
                        .append(" | ").append(medianAndForks(ref)).append(" | ")
                        .append(ratio(ref.map(x -> r.median() / x.median()))).append(" | ")
                        .append(ratio(floor.map(f -> f.median() / r.median()))).append(" |\n");
            }
        }
        for (int threads : new int[] {1, 2, 4, 8}) {
            study.floor(threads).ifPresent(f -> md.append("| floor (a) | | | ").append(threads).append(" | ")
                    .append(ops(f.median())).append(" | ").append(forkRange(f)).append(" | | | | |\n"));
        }
        study.floor("hotCasT1").ifPresent(f -> md.append("| CAS alone (floor of caller time) | | | 1 | ")
                .append(ops(f.median())).append(" | ").append(forkRange(f)).append(" | | | | |\n"));
    }

    /** Sluice's token bucket (own clock) against one competitor in one hot-key scenario, in ops/s. */
    private record HotPair(String competitor, String regime, int threads, double sluice, double other) {

        double ratio() {
            return sluice / other;
        }
    }

    /**
     * Every hot-key scenario of a competitor against Sluice's token bucket: on the medians of the study's run of both
     * (section 1c) where it has them, else on section 1's single forks, which can pair a slow fork of one with a fast
     * fork of the other.
     */
    private List<HotPair> competitorPairs() {
        List<HotPair> pairs = new ArrayList<>();
        for (Result c : select(r -> r.benchmark.equals("HotKeyCompetitorsBenchmark"))) {
            String impl = c.param("impl");
            String regime = c.param("regime");
            Optional<ForkStudy.Row> other = rivals.hot(impl, "TOKEN_BUCKET", regime, c.threads);
            Optional<ForkStudy.Row> sluice = rivals.hot("SLUICE", "TOKEN_BUCKET", regime, c.threads);
            if (other.isPresent() && sluice.isPresent()) {
                pairs.add(new HotPair(impl, regime, c.threads, sluice.get().median(), other.get().median()));
            } else {
                hot("SLUICE", "TOKEN_BUCKET", regime, c.threads)
                        .ifPresent(s -> pairs.add(new HotPair(impl, regime, c.threads, s.score, c.score)));
            }
        }
        return pairs;
    }

    private void competitorsOverForks() {
        if (rivals.isEmpty()) {
            return;
        }
        md.append("\n## 1c. Competitors on the hot key: median of ").append(rivals.forks()).append(" forks\n\n");
        md.append("From `jmh/contention-study.sh`: the token bucket of section 1 for SLUICE (its own clock) and each "
                + "competitor, in the same JMH runs, ").append(rivals.forks()).append(rivals.forksRun())
                .append(" each of 3 x 1 s warmup (the "
                + "competitors take about 2 s to reach their speed) and 2 x 1 s measurement. The competitor "
                + "targets are judged here.\n\n");
        md.append("| competitor | regime | threads | competitor median | competitor forks | Sluice median "
                + "| Sluice forks | Sluice × competitor |\n|---|---|---:|---:|---|---:|---|---:|\n");
        for (String regime : List.of("ADMIT", "DENY")) {
            for (ForkStudy.Row r : rivals.rows) {
                Result c = r.result();
                if (c.param("impl").equals("SLUICE") || !c.param("regime").equals(regime)) {
                    continue;
                }
                Optional<ForkStudy.Row> sluice = rivals.hot("SLUICE", "TOKEN_BUCKET", regime, c.threads);
                md.append("| ").append(c.param("impl")).append(" | ").append(regime).append(" | ").append(c.threads)
                        .append(" | ").append(medianAndForks(Optional.of(r))).append(" | ")
                        .append(medianAndForks(sluice)).append(" | ")
                        .append(ratio(sluice.map(x -> x.median() / r.median()))).append(" |\n");
            }
        }
    }

    private void manyKeysOverForks() {
        List<ForkStudy.Row> rows = study.rows.stream().filter(r -> r.result().benchmark.equals("ManyKeysBenchmark"))
                .collect(Collectors.toList());
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 2b. Many keys, 1 thread: median of ").append(study.forks()).append(" forks\n\n");
        md.append("From `jmh/contention-study.sh`: 1M uniform keys on 1 thread, Sluice and the reference, with the "
                + "floors of the same keys (section 6), each in ").append(study.forks()).append(study.forksRun())
                .append(" of 1 x 1 s warmup and 2 x 1 s measurement. One thread's result on a million keys moves "
                + "with the other work on the shared host from one fork to the next; the many-key targets are judged "
                + "here.\n\n");
        md.append("| keys | implementation | median | forks | × ref | floor | floor median | × floor |\n"
                + "|---|---|---:|---|---:|---|---:|---:|\n");
        for (ForkStudy.Row r : rows) {
            Result s = r.result();
            String keyType = s.param("keyType");
            Optional<ForkStudy.Row> ref = study.many("REFERENCE", keyType);
            String floorMethod = keyType.equals("LONG") ? "coldClockCasT1" : "coldStringBytesClockCasT1";
            Optional<ForkStudy.Row> floor = study.floor(floorMethod);
            md.append("| ").append(keyType).append(" | ").append(s.param("impl")).append(" | ")
                    .append(ops(r.median())).append(" | ").append(forkRange(r)).append(" | ")
                    .append(ratio(ref.map(x -> r.median() / x.median()))).append(" | ").append(floorMethod)
                    .append(" | ").append(floor.map(f -> ops(f.median())).orElse("–")).append(" | ")
                    .append(ratio(floor.map(f -> f.median() / r.median()))).append(" |\n");
        }
        study.floor("coldStringClockCasT1").ifPresent(f -> md.append("| STRING | floor (c): cached `hashCode()` | ")
                .append(ops(f.median())).append(" | ").append(forkRange(f)).append(" | | | | |\n"));
    }

    /** Two cells: a row's median and the range of its forks, or dashes. */
    private static String medianAndForks(Optional<ForkStudy.Row> row) {
        return row.map(x -> ops(x.median()) + " | " + forkRange(x)).orElse("– | –");
    }

    private static String forkRange(ForkStudy.Row r) {
        return ops(r.slowest()) + " to " + ops(r.fastest());
    }

    private void manyKeys() {
        List<Result> rows = select(r -> r.benchmark.equals("ManyKeysBenchmark"));
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 2. Many keys\n\n");
        md.append("All keys are present before measurement; requests follow a precomputed uniform or Zipf(1) order; "
                + "a token bucket of 100 per second per key. Keys: ").append(values("ManyKeysBenchmark", "keys"))
                .append(". Bytes/key is from the memory measurement (section 7) at the same key count. The floor is "
                + "a clock read and a CAS on a random slot of a `long[]` as large as Sluice's long-key table "
                + "(for SLUICE_CALLER_TIME: without the clock read); for String keys, 1 thread, reading the clock: "
                + "the character floor (section 6, coldStringBytesClockCas).\n\n");
        md.append("| keys | distribution | implementation | threads | ops/s | ± | × ref | B/op | bytes/key | × floor |\n");
        md.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String keyType : List.of("LONG", "STRING")) {
            for (String distribution : List.of("UNIFORM", "ZIPF")) {
                for (String impl : MANY_KEYS_IMPLS) {
                    for (Result r : sorted(select(x -> x.benchmark.equals("ManyKeysBenchmark")
                            && x.param("impl").equals(impl) && x.param("keyType").equals(keyType)
                            && x.param("distribution").equals(distribution)))) {
                        Optional<Result> ref = many("REFERENCE", keyType, distribution, r.threads);
                        Optional<Result> floor = keyType.equals("LONG") ? coldFloor(impl, distribution, r.threads)
                                : r.threads == 1 && (impl.equals("SLUICE") || impl.equals("SLUICE_DECISION"))
                                ? coldFloorRow("coldStringBytesClockCasT1", distribution) : Optional.empty();
                        md.append("| ").append(keyType).append(" | ").append(distribution).append(" | ").append(impl)
                                .append(" | ").append(r.threads).append(" | ").append(ops(r.score)).append(" | ")
                                .append(ops(r.error)).append(" | ").append(ratio(ref.map(x -> r.score / x.score)))
                                .append(" | ").append(bytes(r.bytesPerOp)).append(" | ")
                                .append(memoryOf(impl, keyType, Integer.parseInt(r.param("keys")))
                                        .map(m -> fmt("%.0f", m.totalPerKey())).orElse("–"))
                                .append(" | ").append(ratio(floor.map(f -> f.score / r.score))).append(" |\n");
                    }
                }
            }
        }
    }

    private void service() {
        List<Result> rows = sorted(select(r -> r.benchmark.equals("ServiceBenchmark")));
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 3. RateLimiterService.allow(user, api)\n\n");
        md.append("Default rule plus 200 API rules, 300 user rules and 50 (user, api) rules over six configs; "
                + "(user, api) pairs: ").append(values("ServiceBenchmark", "keys")).append(", all seen before "
                + "measurement. `decisionT1` fills a caller-owned Decision. \"× engine\" compares with the engine "
                + "alone on the same number of String keys (ManyKeysBenchmark SLUICE STRING), i.e. what rule "
                + "resolution and two-part hashing cost.\n\n");
        md.append("| distribution | method | threads | ops/s | ± | B/op | × engine |\n|---|---|---:|---:|---:|---:|---:|\n");
        for (Result r : rows) {
            Optional<Result> engine = many("SLUICE", "STRING", r.param("distribution"), r.threads);
            md.append("| ").append(r.param("distribution")).append(" | ").append(r.method).append(" | ")
                    .append(r.threads).append(" | ").append(ops(r.score)).append(" | ").append(ops(r.error))
                    .append(" | ").append(bytes(r.bytesPerOp)).append(" | ")
                    .append(ratio(engine.map(e -> r.score / e.score))).append(" |\n");
        }
    }

    private void latency() {
        List<Result> rows = sorted(select(r -> r.benchmark.equals("LatencyBenchmark")));
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 4. Latency on the hot key (SampleTime)\n\n");
        md.append("Token bucket, ADMIT regime. Each sample is one call timed by JMH with `System.nanoTime()`, so "
                + "values include the timer's own cost and granularity (tens of ns): compare implementations, not "
                + "absolute numbers.\n\n");
        md.append("| implementation | threads | p50 ns | p90 ns | p99 ns | p99.9 ns | p99.99 ns | B/op |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : rows) {
            md.append("| ").append(r.param("impl")).append(" | ").append(r.threads).append(" | ")
                    .append(pct(r, "50.0")).append(" | ").append(pct(r, "90.0")).append(" | ")
                    .append(pct(r, "99.0")).append(" | ").append(pct(r, "99.9")).append(" | ")
                    .append(pct(r, "99.99")).append(" | ").append(bytes(r.bytesPerOp)).append(" |\n");
        }
    }

    private void backends() {
        backendsWithoutFfm(sorted(select(r -> r.benchmark.equals("BackendBenchmark")
                && r.jdkFeature() < FFM_FEATURE)));
        backendsWithFfm(sorted(select(r -> r.benchmark.equals("BackendBenchmark")
                && r.jdkFeature() >= FFM_FEATURE)));
    }

    /** Section 5: the backends on a JDK before the FFM layer (the JDK of the rest of the report). */
    private void backendsWithoutFfm(List<Result> rows) {
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 5. Memory backends\n\n");
        md.append("Sluice on `MemoryBackend.VAR_HANDLE` (byte-buffer view VarHandles, no flag), `UNSAFE` "
                + "(`sun.misc.Unsafe` through method handles, no flag: `AUTO`'s choice up to JDK 23, so every other "
                + "Sluice row of this report runs on it) and `AGRONA` (`UnsafeBuffer`; these forks run with "
                + "`--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED`). Hot key: token bucket, ADMIT; many "
                + "keys: 1M uniform long keys.\n\n");
        backendTable(rows, "VAR_HANDLE");
    }

    /** Section 5b: the backends on a JDK with the FFM layer, FFM beside UNSAFE. */
    private void backendsWithFfm(List<Result> rows) {
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 5b. Memory backends on JDK ").append(rows.get(0).jdkVersion).append(" (FFM)\n\n");
        md.append("`FFM` (the jar's multi-release layer) beside `UNSAFE` and `VAR_HANDLE`, on the same benchmarks "
                + "as section 5. Methods ending in `NativeAccess` run in forks with "
                + "`--enable-native-access=ALL-UNNAMED`, where FFM reaches memory by address through one constant "
                + "segment; the others run without it, where FFM goes through a segment per stripe. \"× UNSAFE\" is "
                + "the row's throughput over UNSAFE's on the same method: FFM's target is within 1.05x of UNSAFE "
                + "(0.95x or more). Forks on a shared machine move by several percent; "
                + "[docs/benchmarks.md](../../docs/benchmarks.md) compares FFM and UNSAFE over ABBA pairs.");
        String run = meta.getProperty("backendsJdk25", "");
        if (!run.isBlank()) {
            md.append(" Run: ").append(run).append('.');
        }
        md.append("\n\n");
        backendTable(rows, "UNSAFE");
    }

    /** One row per backend and benchmark, its throughput over the baseline backend's on the same method. */
    private void backendTable(List<Result> rows, String baseline) {
        md.append("| benchmark | backend | threads | ops/s | ± | B/op | × ").append(baseline).append(" |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|\n");
        for (Result r : rows) {
            String backend = backendOf(r);
            Optional<Result> base = rows.stream().filter(x -> x.method.equals(r.method)
                    && backendOf(x).equals(baseline)).findFirst();
            md.append("| ").append(r.method).append(" | ").append(backend).append(" | ").append(r.threads)
                    .append(" | ").append(ops(r.score)).append(" | ").append(ops(r.error)).append(" | ")
                    .append(bytes(r.bytesPerOp)).append(" | ")
                    .append(baseline.equals(backend) ? "" : ratio(base.map(b -> r.score / b.score)))
                    .append(" |\n");
        }
    }

    private static String backendOf(Result r) {
        return r.params.containsKey("backend") ? r.param("backend") : r.param("memory");
    }

    private void floors() {
        List<Result> rows = sorted(select(r -> r.benchmark.equals("FloorBenchmark")));
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n## 6. Floors\n\n");
        md.append("hotClockCas: `System.nanoTime()` + one CAS on a padded cell; hotCas: the CAS alone (time from the "
                + "caller); coldClockCas / coldCas: the same on a random slot of a `long[]` of 32 bytes per key "
                + "(the size of Sluice's long-key table), slots in the many-keys key order; coldStringClockCas: the "
                + "request's key string from the many-keys array of names, its cached `hashCode()` choosing the slot; "
                + "coldStringBytesClockCas: a hash of its characters choosing it; coldStringSeededClockCas: Sluice's "
                + "seeded fingerprint choosing it; coldStringCheckedClockCas: that fingerprint, and the slot's key word "
                + "read and compared before the CAS; coldStringProbedClockCas: that fingerprint in a `long[]` shaped as "
                + "Sluice's string table (24-byte slots at 3/4 load, every name put in), probed as the table probes, the "
                + "clock read before the probe; hotClaimWritePublish: the sliding log's write protocol alone, "
                + "a claim CAS on a padded header, one plain store to a ring of 65,536 longs and a release store of "
                + "the header, time from the caller; hotBackoffClockCas: the clock read and CAS of hotClockCas retried "
                + "until the CAS succeeds, 512 spin-wait hints after a lost one, as Sluice's engine backs off "
                + "(diagnostics, see the analysis).\n\n");
        md.append("| floor | distribution | keys | threads | ops/s | ± | ns/op per thread |\n|---|---|---|---:|---:|---:|---:|\n");
        for (Result r : rows) {
            md.append("| ").append(r.method).append(" | ").append(r.param("distribution")).append(" | ")
                    .append(r.param("keys")).append(" | ").append(r.threads).append(" | ").append(ops(r.score))
                    .append(" | ").append(ops(r.error)).append(" | ").append(fmt("%.1f", 1e9 * r.threads / r.score))
                    .append(" |\n");
        }
    }

    private void memorySection() {
        if (memory.isEmpty()) {
            return;
        }
        md.append("\n## 7. Memory per key\n\n");
        md.append("Each line is a JVM of its own (`dev.sluice.jmh.MemoryPerKey`): full GC (`System.gc()` three "
                + "times), heap used (MemoryMXBean) and direct memory used (BufferPoolMXBean \"direct\", where "
                + "Sluice's tables live); then the store is created and asked once for each of N distinct keys; "
                + "full GC and both read again; bytes/key = difference / N. It counts everything the store keeps: a "
                + "map of per-key limiters keeps the boxed Long or the String key (\"user-N\"); Sluice keeps "
                + "neither. Sluice's table is allocated for its whole capacity (maxKeys = N) at first use. Limit: "
                + "100 per second (the sliding log: 10 per second, one long of ring per permit).\n\n");
        md.append("| implementation | algorithm | keys | key type | heap B/key | off-heap B/key | total B/key | note |\n");
        md.append("|---|---|---:|---|---:|---:|---:|---|\n");
        for (MemoryRow m : memory) {
            if (m.failed) {
                md.append("| ").append(m.impl).append(" | ").append(m.algorithm).append(" | ").append(m.keys)
                        .append(" | ").append(m.keyType).append(" | – | – | no result | ").append(m.note)
                        .append(" |\n");
                continue;
            }
            md.append("| ").append(m.impl).append(" | ").append(m.algorithm).append(" | ").append(m.keys)
                    .append(" | ").append(m.keyType).append(" | ").append(fmt("%.1f", m.heapPerKey)).append(" | ")
                    .append(fmt("%.1f", m.directPerKey)).append(" | ").append(fmt("%.1f", m.totalPerKey()))
                    .append(" | ").append(m.note).append(" |\n");
        }
    }

    /**
     * The JFR section. The recordings are large and {@code run-report.sh} deletes them once summarised, so the summary
     * is kept in {@value #JFR_SUMMARY}: regenerating the report later (after the contention study) reuses it.
     */
    private void jfrSection() throws IOException {
        Path summary = dir.resolve(JFR_SUMMARY);
        Path jfrDir = dir.resolve("jfr");
        List<Path> recordings = List.of();
        if (Files.isDirectory(jfrDir)) {
            try (Stream<Path> files = Files.walk(jfrDir)) {
                recordings = files.filter(p -> p.toString().endsWith(".jfr")).sorted().collect(Collectors.toList());
            }
        }
        if (!recordings.isEmpty()) {
            StringBuilder section = new StringBuilder();
            section.append("\n## JFR: where the time goes\n\n");
            section.append("Recorded with `-prof jfr` on the runs named below; top frames of the execution samples "
                    + "(self time), JIT-inlined callees counted in their own method.\n");
            for (Path recording : recordings) {
                section.append("\n`").append(jfrDir.relativize(recording.getParent())).append("`\n\n```\n");
                for (String line : JfrTop.topFrames(recording, 10)) {
                    section.append(line).append('\n');
                }
                section.append("```\n");
            }
            Files.writeString(summary, section);
        }
        if (Files.exists(summary)) {
            md.append(Files.readString(summary));
        }
    }

    private void charts() throws IOException {
        md.append("\n## Charts\n\n");
        for (String regime : List.of("ADMIT", "DENY")) {
            XYChart chart = new XYChartBuilder().width(900).height(560)
                    .title("Hot key, token bucket, " + regime + ": throughput vs threads").xAxisTitle("threads")
                    .yAxisTitle("ops/s").build();
            throughputAxis(chart);
            int series = 0;
            List<String> impls = new ArrayList<>(List.of(SLUICE_AND_REFERENCE));
            impls.addAll(List.of(COMPETITORS));
            for (String impl : impls) {
                series += addSeries(chart, impl, hotRows(impl, "TOKEN_BUCKET", regime));
            }
            series += addSeries(chart, "floor: clock + CAS", sorted(select(r -> r.benchmark.equals("FloorBenchmark")
                    && r.method.startsWith("hotClockCas"))));
            if (series > 0) {
                String name = "hotkey-threads-" + regime.toLowerCase(Locale.ROOT) + ".png";
                BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
                md.append("![hot key ").append(regime).append("](").append(name).append(")\n\n");
            }
        }
        XYChart many = new XYChartBuilder().width(900).height(560)
                .title("Many keys, long keys, uniform: throughput vs threads").xAxisTitle("threads")
                .yAxisTitle("ops/s").build();
        throughputAxis(many);
        int manySeries = 0;
        for (String impl : MANY_KEYS_IMPLS) {
            manySeries += addSeries(many, impl, sorted(select(r -> r.benchmark.equals("ManyKeysBenchmark")
                    && r.param("impl").equals(impl) && r.param("keyType").equals("LONG")
                    && r.param("distribution").equals("UNIFORM"))));
        }
        manySeries += addSeries(many, "floor: clock + CAS, random slot", sorted(select(r ->
                r.benchmark.equals("FloorBenchmark") && r.method.startsWith("coldClockCas")
                        && r.param("distribution").equals("UNIFORM"))));
        if (manySeries > 0) {
            BitmapEncoder.saveBitmap(many, dir.resolve("manykeys-threads.png").toString(),
                    BitmapEncoder.BitmapFormat.PNG);
            md.append("![many keys](manykeys-threads.png)\n\n");
        }
        for (int keys : new TreeSet<>(memory.stream().map(m -> m.keys).collect(Collectors.toList()))) {
            List<MemoryRow> rows = memory.stream().filter(m -> m.keys == keys && !m.failed)
                    .collect(Collectors.toList());
            if (rows.isEmpty()) {
                continue;
            }
            CategoryChart chart = new CategoryChartBuilder().width(1000).height(560)
                    .title(String.format(Locale.ROOT, "Bytes per key at %,d keys (heap + off-heap)", keys))
                    .yAxisTitle("bytes per key")
                    .build();
            chart.getStyler().setStacked(true);
            chart.getStyler().setXAxisLabelRotation(35);
            List<String> labels = rows.stream().map(m -> shortName(m.impl) + " " + m.keyType.toLowerCase(Locale.ROOT)
                    + (m.algorithm.equals("TOKEN_BUCKET") ? "" : " " + m.algorithm.toLowerCase(Locale.ROOT)))
                    .collect(Collectors.toList());
            chart.addSeries("heap", labels, rows.stream().map(m -> m.heapPerKey).collect(Collectors.toList()));
            chart.addSeries("off-heap", labels, rows.stream().map(m -> m.directPerKey).collect(Collectors.toList()));
            String name = "bytes-per-key-" + keys + ".png";
            BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
            md.append("![bytes per key at ").append(keys).append("](").append(name).append(")\n\n");
        }
    }

    /**
     * A linear throughput axis from 0, labelled in M/s: a log axis labels decades only (one label on most of these
     * charts), and XChart 3.8.6 misplaces the labels of its non-decade log ticks.
     */
    private static void throughputAxis(XYChart chart) {
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setyAxisTickLabelsFormattingFunction(ReportGenerator::opsLabel);
    }

    /** 20000000 as "20M", 1500000 as "1.5M", 500000 as "500k": at most two decimals, none that are zero. */
    static String opsLabel(double opsPerSecond) {
        double scale = opsPerSecond >= 1e6 ? 1e6 : opsPerSecond >= 1e3 ? 1e3 : 1;
        String suffix = scale == 1e6 ? "M" : scale == 1e3 ? "k" : "";
        return BigDecimal.valueOf(opsPerSecond / scale).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString() + suffix;
    }

    // ---------------------------------------------------------------- targets

    private void evaluateTargets() {
        // Hot key, 1 thread, own clock: within 1.15x of floor (a); and >= 1.2x the reference.
        List<Double> floorMultiples = new ArrayList<>();
        List<String> worst = new ArrayList<>();
        boolean oneThreadOverForks = study.floor(1).isPresent();
        Optional<Double> floorNs = oneThreadNs(study.floor(1), hotFloor("SLUICE", 1));
        for (String algorithm : values("HotKeyBenchmark", "algorithm")) {
            for (String regime : List.of("ADMIT", "DENY")) {
                Optional<Double> ns = oneThreadNs("SLUICE", algorithm, regime);
                if (ns.isPresent() && floorNs.isPresent()) {
                    double multiple = ns.get() / floorNs.get();
                    floorMultiples.add(multiple);
                    worst.add(fmt("%.2fx", multiple) + " " + algorithm + "/" + regime);
                }
            }
        }
        worst.sort(Comparator.reverseOrder());
        target("Hot key, 1 thread, own clock: within 1.15x of floor (a), every algorithm and regime"
                + (oneThreadOverForks ? " (median of " + study.forks() + " forks, section 1b)" : ""),
                floorMultiples, v -> v <= 1.15, "worst " + String.join(", ", worst.subList(0, Math.min(3,
                        worst.size()))));
        overForksVsReference("Hot key, 1 thread, own clock: ≥ 1.2x the reference", "SLUICE", 1, 1.2);
        overForksVsReference("Hot key, 1 thread, caller-supplied time: ≥ 3x the reference", "SLUICE_CALLER_TIME", 1,
                3.0);
        overForksVsReference("Hot key, 2 threads, both regimes: ≥ 1.5x the reference", "SLUICE", 2, 1.5);
        overForksVsReference("Hot key, 4 threads on 2 cores: ≥ 2x the reference", "SLUICE", 4, 2.0);
        overForksVsReference("Hot key, 8 threads on 2 cores: ≥ 2x the reference", "SLUICE", 8, 2.0);
        String manyOverForks = study.many("SLUICE", "LONG").isPresent()
                ? " (median of " + study.forks() + " forks, section 2b)" : "";
        manyVsReference("1M uniform keys, 1 thread, long keys: ≥ 3x the reference" + manyOverForks, "LONG", 3.0);
        Optional<Double> manyLong = manyNs("SLUICE", "LONG");
        Optional<Double> coldFloor = coldFloorNs("coldClockCasT1");
        target("1M uniform keys, 1 thread, long keys: within 1.5x of floor (b)" + manyOverForks,
                manyLong.isPresent() && coldFloor.isPresent() ? List.of(manyLong.get() / coldFloor.get()) : List.of(),
                v -> v <= 1.5, "");
        manyVsReference("1M uniform keys, 1 thread, String keys: ≥ 2x the reference" + manyOverForks, "STRING", 2.0);
        List<HotPair> pairs = competitorPairs();
        String pairsOverForks = rivals.isEmpty() ? "" : ", median of " + rivals.forks() + " forks, section 1c";
        for (String competitor : List.of("BUCKET4J_LOCK_FREE", "BUCKET4J_SYNCHRONIZED", "RESILIENCE4J")) {
            List<Double> ratios = pairs.stream().filter(p -> p.competitor.equals(competitor)).map(HotPair::ratio)
                    .collect(Collectors.toList());
            target("≥ 5x " + competitor + " on every hot-key scenario (Sluice own clock, token bucket"
                    + pairsOverForks + ")", ratios, v -> v >= 5.0, "");
        }
        List<Double> guava = pairs.stream().filter(p -> p.competitor.equals("GUAVA")).map(HotPair::ratio)
                .collect(Collectors.toList());
        for (Result g : select(r -> r.param("impl").equals("GUAVA") && r.benchmark.equals("ManyKeysBenchmark"))) {
            many("SLUICE", g.param("keyType"), g.param("distribution"), g.threads)
                    .ifPresent(x -> guava.add(x.score / g.score));
        }
        target("Ahead of Guava everywhere (hot key" + pairsOverForks + "; many keys, section 2)", guava,
                v -> v > 1.0, "");
        List<Double> allocations = new ArrayList<>();
        List<String> allocating = new ArrayList<>();
        for (Result r : select(r -> !r.benchmark.equals("FloorBenchmark") && (r.param("impl").startsWith("SLUICE")
                || r.benchmark.equals("ServiceBenchmark") || r.benchmark.equals("BackendBenchmark")))) {
            if (!Double.isNaN(r.bytesPerOp)) {
                allocations.add(r.bytesPerOp);
                if (r.bytesPerOp >= ZERO_BYTES) {
                    allocating.add(r.benchmark + "." + r.method + " " + r.params.values() + " "
                            + fmt("%.1f", r.bytesPerOp) + " B/op");
                }
            }
        }
        target("0 B/op on every Sluice path of an existing key (long, String, service, Decision; < "
                + ZERO_BYTES + " B/op counts as 0)", allocations, v -> v < ZERO_BYTES,
                allocating.isEmpty() ? "" : "allocating: " + String.join("; ", allocating.subList(0,
                        Math.min(5, allocating.size()))));
        List<Double> oneLong = new ArrayList<>();
        List<Double> heap = new ArrayList<>();
        List<Double> log = new ArrayList<>();
        for (MemoryRow m : memory) {
            if (!m.impl.equals("SLUICE") || m.failed) {
                continue;
            }
            heap.add(m.heapPerKey);
            if (m.algorithm.equals("SLIDING_WINDOW_LOG")) {
                log.add(m.totalPerKey());
            } else {
                oneLong.add(m.totalPerKey());
            }
        }
        target("≤ 32 bytes per key (one-long algorithms)", oneLong, v -> v <= 32.5, "");
        target("0 heap bytes per key (< 1 B/key counts as 0)", heap, v -> v < 1.0, "");
        target("Sliding log ≤ 8 x limit + 32 bytes per key (limit 10: ≤ 112)", log, v -> v <= 112.5, "");
    }

    private void hotVsReference(String name, String impl, int threads, double wanted) {
        List<Double> ratios = new ArrayList<>();
        List<String> low = new ArrayList<>();
        for (Result r : select(r -> r.benchmark.equals("HotKeyBenchmark") && r.threads == threads
                && r.param("impl").equals(impl))) {
            hot("REFERENCE", r.param("algorithm"), r.param("regime"), threads).ifPresent(ref -> {
                double v = r.score / ref.score;
                ratios.add(v);
                if (v < wanted) {
                    low.add(r.param("algorithm") + "/" + r.param("regime") + " " + fmt("%.2fx", v));
                }
            });
        }
        target(name + ", every algorithm", ratios, v -> v >= wanted,
                low.isEmpty() ? "" : "below: " + String.join(", ", low));
    }

    /** On the several-fork study's medians when it ran these threads (section 1b), else on section 1's forks. */
    private void overForksVsReference(String name, String impl, int threads, double wanted) {
        if (study.hot("REFERENCE", "TOKEN_BUCKET", "ADMIT", threads).isEmpty()) {
            hotVsReference(name, impl, threads, wanted);
            return;
        }
        List<Double> ratios = new ArrayList<>();
        List<String> low = new ArrayList<>();
        for (ForkStudy.Row r : study.rows) {
            Result s = r.result();
            if (!s.benchmark.equals("HotKeyBenchmark") || s.threads != threads || !s.param("impl").equals(impl)) {
                continue;
            }
            study.hot("REFERENCE", s.param("algorithm"), s.param("regime"), threads).ifPresent(ref -> {
                double v = r.median() / ref.median();
                ratios.add(v);
                if (v < wanted) {
                    low.add(s.param("algorithm") + "/" + s.param("regime") + " " + fmt("%.2fx", v));
                }
            });
        }
        target(name + ", every algorithm (median of " + study.forks() + " forks, section 1b)", ratios,
                v -> v >= wanted, low.isEmpty() ? "" : "below: " + String.join(", ", low));
    }

    private void manyVsReference(String name, String keyType, double wanted) {
        Optional<Double> s = manyNs("SLUICE", keyType);
        Optional<Double> ref = manyNs("REFERENCE", keyType);
        target(name, s.isPresent() && ref.isPresent() ? List.of(ref.get() / s.get()) : List.of(), v -> v >= wanted,
                "");
    }

    private void target(String name, List<Double> values, Predicate<Double> ok, String detail) {
        if (values.isEmpty()) {
            targets.add(new String[] {name, "no result in this run", "n/a"});
            return;
        }
        double min = values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        boolean met = values.stream().allMatch(ok);
        String measured = (values.size() == 1 ? fmt("%.2f", min) : fmt("%.2f", min) + " to " + fmt("%.2f", max)
                + " over " + values.size() + " results") + (detail.isEmpty() ? "" : "; " + detail);
        targets.add(new String[] {name, measured, met ? "**met**" : "**missed**"});
    }

    // ---------------------------------------------------------------- lookups

    private List<Result> select(Predicate<Result> p) {
        return results.stream().filter(p).collect(Collectors.toList());
    }

    private static List<Result> sorted(List<Result> rows) {
        rows.sort(Comparator.comparing((Result r) -> r.method.replaceAll("\\d+$", ""))
                .thenComparing(r -> r.params.toString()).thenComparingInt(r -> r.threads));
        return rows;
    }

    private List<String> values(String benchmark, String param) {
        return results.stream().filter(r -> r.benchmark.equals(benchmark) && r.params.containsKey(param))
                .map(r -> r.param(param)).distinct().collect(Collectors.toList());
    }

    private List<Result> hotRows(String impl, String algorithm, String regime) {
        return sorted(select(r -> (r.benchmark.equals("HotKeyBenchmark") && r.param("algorithm").equals(algorithm)
                || r.benchmark.equals("HotKeyCompetitorsBenchmark") && algorithm.equals("TOKEN_BUCKET"))
                && r.param("impl").equals(impl) && r.param("regime").equals(regime)));
    }

    private Optional<Result> hot(String impl, String algorithm, String regime, int threads) {
        return hotRows(impl, algorithm, regime).stream().filter(r -> r.threads == threads).findFirst();
    }

    private Optional<Result> hotFloor(String impl, int threads) {
        String method = impl.equals("SLUICE_CALLER_TIME") ? "hotCasT" : impl.startsWith("SLUICE") ? "hotClockCasT"
                : null;
        return method == null ? Optional.empty() : select(r -> r.benchmark.equals("FloorBenchmark")
                && r.method.equals(method + threads)).stream().findFirst();
    }

    private Optional<Result> many(String impl, String keyType, String distribution, int threads) {
        return select(r -> r.benchmark.equals("ManyKeysBenchmark") && r.param("impl").equals(impl)
                && r.param("keyType").equals(keyType) && r.param("distribution").equals(distribution)
                && r.threads == threads).stream().findFirst();
    }

    private Optional<Result> coldFloorRow(String method, String distribution) {
        return select(r -> r.benchmark.equals("FloorBenchmark") && r.method.equals(method)
                && r.param("distribution").equals(distribution)).stream().findFirst();
    }

    private Optional<Result> coldFloor(String impl, String distribution, int threads) {
        String method = impl.equals("SLUICE_CALLER_TIME") ? "coldCasT" : impl.startsWith("SLUICE")
                ? "coldClockCasT" : null;
        return method == null ? Optional.empty() : coldFloorRow(method + threads, distribution);
    }

    private Optional<MemoryRow> memoryOf(String impl, String keyType, int keys) {
        String owner = impl.startsWith("SLUICE") ? "SLUICE" : impl;
        return memory.stream().filter(m -> m.impl.equals(owner) && m.keyType.equals(keyType) && m.keys == keys
                && m.algorithm.equals("TOKEN_BUCKET") && !m.failed).findFirst();
    }

    private static int addSeries(XYChart chart, String name, List<Result> rows) {
        List<Result> usable = rows.stream().filter(r -> r.score > 0).collect(Collectors.toList());
        if (usable.isEmpty()) {
            return 0;
        }
        chart.addSeries(name, usable.stream().map(r -> (double) r.threads).collect(Collectors.toList()),
                usable.stream().map(r -> r.score).collect(Collectors.toList())).setMarker(SeriesMarkers.CIRCLE);
        return 1;
    }

    // ---------------------------------------------------------------- formatting

    private void row(String a, String b) {
        md.append("| ").append(a).append(" | ").append(b).append(" |\n");
    }

    private static String shortName(String impl) {
        return impl.replace("BUCKET4J_", "B4J ").replace("SYNCHRONIZED", "sync").replace("LOCK_FREE", "lock-free")
                .replace("RESILIENCE4J", "R4J");
    }

    private static String pct(Result r, String key) {
        Double v = r.percentiles.get(key);
        return v == null ? "–" : fmt("%.0f", v);
    }

    static String ops(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        return v >= 1e6 ? fmt("%.2f M", v / 1e6) : v >= 1e3 ? fmt("%.1f k", v / 1e3) : fmt("%.0f", v);
    }

    static String bytes(double v) {
        return Double.isNaN(v) ? "–" : fmt("%.1f", v);
    }

    static String ratio(Optional<Double> v) {
        return v.map(x -> fmt("%.2fx", x)).orElse("–");
    }

    private static String str(Object o) {
        return o == null ? "?" : String.valueOf(o);
    }

    static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
