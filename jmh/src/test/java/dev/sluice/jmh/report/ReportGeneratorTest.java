package dev.sluice.jmh.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportGeneratorTest {

    private static String row(String benchmark, int threads, String params, double score, double bytes) {
        return "{\"benchmark\":\"dev.sluice.jmh." + benchmark + "\",\"mode\":\"thrpt\",\"threads\":" + threads
                + ",\"jvmArgs\":[],\"params\":{" + params + "},\"primaryMetric\":{\"score\":" + score
                + ",\"scoreError\":\"NaN\",\"scoreUnit\":\"ops/s\"},\"secondaryMetrics\":{\"gc.alloc.rate.norm\":"
                + "{\"score\":" + bytes + "}}}";
    }

    private static String hot(String impl, double score, double bytes) {
        return row("HotKeyBenchmark.t1", 1, "\"impl\":\"" + impl
                + "\",\"algorithm\":\"TOKEN_BUCKET\",\"regime\":\"ADMIT\"", score, bytes);
    }

    private static String report(Path dir, String json, List<String> memoryLines) throws Exception {
        return report(dir, json, memoryLines, ForkStudy.none());
    }

    private static String report(Path dir, String json, List<String> memoryLines, ForkStudy study)
            throws Exception {
        return report(dir, json, memoryLines, study, ForkStudy.none());
    }

    private static String report(Path dir, String json, List<String> memoryLines, ForkStudy study,
            ForkStudy rivals) throws Exception {
        return report(dir, json, memoryLines, study, rivals, new Properties());
    }

    private static String report(Path dir, String json, List<String> memoryLines, ForkStudy study,
            ForkStudy rivals, Properties meta) throws Exception {
        List<Result> results = Result.all(Json.parse(json));
        return new ReportGenerator(results, MemoryRow.parse(memoryLines), meta,
                new LinkedHashMap<>(), new LinkedHashMap<String, TreeSet<String>>(), dir, study, rivals).render("");
    }

    /** A 2-thread token-bucket row of the several-fork study, with one iteration value per fork. */
    private static String forks(String impl, double... forkMeans) {
        return forks("HotKeyBenchmark.t2", 2, "\"impl\":\"" + impl
                + "\",\"algorithm\":\"TOKEN_BUCKET\",\"regime\":\"ADMIT\"", forkMeans);
    }

    /** A row of the several-fork study, with one iteration value per fork. */
    private static String forks(String benchmark, int threads, String params, double... forkMeans) {
        StringBuilder raw = new StringBuilder();
        for (double m : forkMeans) {
            raw.append(raw.length() == 0 ? "" : ",").append("[").append(m).append(",").append(m).append("]");
        }
        return "{\"benchmark\":\"dev.sluice.jmh." + benchmark + "\",\"mode\":\"thrpt\",\"threads\":" + threads
                + ",\"params\":{" + params + "},"
                + "\"primaryMetric\":{\"score\":1,\"scoreError\":\"NaN\",\"scoreUnit\":\"ops/s\",\"rawData\":["
                + raw + "]}}";
    }

    private static String status(String report, String targetStart) {
        for (String line : report.split("\n")) {
            if (line.startsWith("| " + targetStart)) {
                String[] cells = line.split("\\|");
                return cells[cells.length - 1].trim();
            }
        }
        throw new AssertionError("no target row " + targetStart + " in\n" + report);
    }

    @Test
    void judgesTargetsFromTheRatiosOfOneRun(@TempDir Path dir) throws Exception {
        String json = "[" + hot("SLUICE", 30e6, 0.01) + "," + hot("REFERENCE", 20e6, 0.0) + ","
                + row("FloorBenchmark.hotClockCasT1", 1, "", 40e6, 0.0) + "]";
        String report = report(dir, json, List.of());

        // 30M / 20M = 1.5x the reference: the 1.2x target is met.
        assertEquals("**met**", status(report, "Hot key, 1 thread, own clock: ≥ 1.2x"));
        // 40M / 30M = 1.33x the floor: outside 1.15x.
        assertEquals("**missed**", status(report, "Hot key, 1 thread, own clock: within 1.15x"));
        assertEquals("n/a", status(report, "Hot key, 2 threads"));
        assertEquals("**met**", status(report, "0 B/op"));
        assertTrue(report.contains("| TOKEN_BUCKET | SLUICE | 1 | 30.00 M | NaN | 1.50x | 0.0 | 1.33x |"), report);
        assertTrue(Files.exists(dir.resolve("hotkey-threads-admit.png")));
    }

    @Test
    void judgesContendedTargetsOnTheMedianOfForksWhenAStudyIsThere(@TempDir Path dir) throws Exception {
        // Section 1's single forks: Sluice landed in a slow fork, the reference in a fast one (0.5x).
        String json = "[" + row("HotKeyBenchmark.t2", 2, "\"impl\":\"SLUICE\",\"algorithm\":\"TOKEN_BUCKET\","
                + "\"regime\":\"ADMIT\"", 10e6, 0.0) + "," + row("HotKeyBenchmark.t2", 2, "\"impl\":\"REFERENCE\","
                + "\"algorithm\":\"TOKEN_BUCKET\",\"regime\":\"ADMIT\"", 20e6, 0.0) + "]";
        assertEquals("**missed**", status(report(dir, json, List.of()), "Hot key, 2 threads"));

        Path file = dir.resolve("forks.json");
        // Medians: Sluice 30M (of 14, 28, 32, 33 -> (28 + 32) / 2), the reference 13M (of 6, 12, 14, 14).
        Files.writeString(file, "[" + forks("SLUICE", 14e6, 28e6, 32e6, 33e6) + ","
                + forks("REFERENCE", 6e6, 12e6, 14e6, 14e6) + "]");
        ForkStudy study = ForkStudy.read(file);
        assertEquals(30e6, study.hot("SLUICE", "TOKEN_BUCKET", "ADMIT", 2).orElseThrow().median(), 1);
        String report = report(dir, json, List.of(), study);

        // 30M / 13M = 2.31x: met on the medians, whatever the single forks said.
        assertEquals("**met**", status(report, "Hot key, 2 threads"));
        assertTrue(report.contains("| TOKEN_BUCKET | ADMIT | SLUICE | 2 | 30.00 M | 14.00 M to 33.00 M | 13.00 M | "
                + "6.00 M to 14.00 M | 2.31x | – |"), report);
        assertTrue(ForkStudy.read(dir.resolve("absent.json")).isEmpty());
    }

    @Test
    void gathersAStudyRunInRoundsIntoOneRowPerConfiguration(@TempDir Path dir) throws Exception {
        // Two rounds, with one to three forks of each configuration: each row gathers its forks from every round.
        Files.writeString(dir.resolve("forks-round1.json"), "[" + forks("SLUICE", 14e6) + ","
                + forks("REFERENCE", 6e6, 12e6) + "]");
        Files.writeString(dir.resolve("forks-round2.json"), "[" + forks("REFERENCE", 14e6, 14e6) + ","
                + forks("SLUICE", 28e6, 32e6, 33e6) + "]");
        // Another study's round, which must not be gathered into this one.
        Files.writeString(dir.resolve("forks-t1-round1.json"), "[" + forks("SLUICE", 1e6) + "]");

        ForkStudy study = ForkStudy.read(dir.resolve("forks.json"));
        assertEquals(2, study.rows.size());
        ForkStudy.Row sluice = study.hot("SLUICE", "TOKEN_BUCKET", "ADMIT", 2).orElseThrow();
        assertArrayEquals(new double[] {14e6, 28e6, 32e6, 33e6}, sluice.forkMeans());
        assertEquals(30e6, sluice.median(), 1);
        assertEquals(13e6, study.hot("REFERENCE", "TOKEN_BUCKET", "ADMIT", 2).orElseThrow().median(), 1);
        assertEquals(4, study.forks());
        assertTrue(study.inRounds);
        // A study of one round ran in rounds too; a study in one file did not.
        assertTrue(ForkStudy.read(dir.resolve("forks-t1.json")).inRounds);
        assertEquals(1, ForkStudy.read(dir.resolve("forks-t1.json")).rows.size());
        Files.writeString(dir.resolve("forks-many.json"), "[" + forks("SLUICE", 1e6) + "]");
        assertFalse(ForkStudy.read(dir.resolve("forks-many.json")).inRounds);
        Files.delete(dir.resolve("forks-many.json"));
        assertTrue(ForkStudy.read(dir.resolve("forks-many.json")).isEmpty());
    }

    @Test
    void judgesCompetitorTargetsOnTheMedianOfForksWhenTheStudyRanTheCompetitors(@TempDir Path dir) throws Exception {
        String tb = "\"algorithm\":\"TOKEN_BUCKET\",\"regime\":\"ADMIT\"";
        String r4j = "\"impl\":\"RESILIENCE4J\",\"regime\":\"ADMIT\"";
        String r4jTb = "\"impl\":\"RESILIENCE4J\"," + tb;
        // Section 1's single forks: Sluice landed in a slow fork (0.9x Resilience4j).
        String json = "[" + row("HotKeyBenchmark.t4", 4, "\"impl\":\"SLUICE\"," + tb, 18e6, 0.0) + ","
                + row("HotKeyCompetitorsBenchmark.t4", 4, r4j, 20e6, 64.0) + "]";
        String oneFork = report(dir, json, List.of());
        assertEquals("**missed**", status(oneFork, "≥ 5x RESILIENCE4J"));
        assertTrue(oneFork.contains("≥ 5x RESILIENCE4J on every hot-key scenario (Sluice own clock, token bucket) | "
                + "0.90 |"), oneFork);

        Path competitors = dir.resolve("forks-competitors.json");
        // Medians of the study's run of both: Sluice 24M (of 18, 23, 25, 26), Resilience4j 4M (of 3, 4, 4, 20).
        Files.writeString(competitors, "[" + forks("HotKeyBenchmark.t4", 4, "\"impl\":\"SLUICE\"," + tb,
                18e6, 23e6, 25e6, 26e6) + "," + forks("HotKeyBenchmark.t4", 4, r4jTb, 3e6, 4e6, 4e6, 20e6) + "]");
        String report = report(dir, json, List.of(), ForkStudy.none(), ForkStudy.read(competitors));

        // 24M / 4M = 6x on the medians: met, whatever the single forks said.
        assertEquals("**met**", status(report, "≥ 5x RESILIENCE4J"));
        assertTrue(report.contains("(Sluice own clock, token bucket, median of 4 forks, section 1c) | 6.00 |"),
                report);
        assertTrue(report.contains("| RESILIENCE4J | ADMIT | 4 | 4.00 M | 3.00 M to 20.00 M | 24.00 M | "
                + "18.00 M to 26.00 M | 6.00x |"), report);
    }

    @Test
    void judgesOneThreadTargetsOnTheMedianOfForksWhenTheStudyRanOneThread(@TempDir Path dir) throws Exception {
        // Section 1's single forks: the caller-time fork ran while the host was busy (2x the reference only).
        String json = "[" + row("HotKeyBenchmark.t1", 1, "\"impl\":\"SLUICE_CALLER_TIME\",\"algorithm\":"
                + "\"TOKEN_BUCKET\",\"regime\":\"ADMIT\"", 60e6, 0.0) + "," + hot("REFERENCE", 30e6, 0.0) + "]";
        assertEquals("**missed**", status(report(dir, json, List.of()), "Hot key, 1 thread, caller-supplied time"));

        String tb = "\"algorithm\":\"TOKEN_BUCKET\",\"regime\":\"ADMIT\"";
        Path contended = dir.resolve("forks.json");
        Path oneThread = dir.resolve("forks-t1.json");
        Files.writeString(contended, "[" + forks("SLUICE", 30e6, 30e6) + "," + forks("REFERENCE", 10e6, 10e6) + "]");
        Files.writeString(oneThread, "[" + forks("HotKeyBenchmark.t1", 1, "\"impl\":\"SLUICE_CALLER_TIME\"," + tb,
                60e6, 95e6, 97e6, 99e6) + "," + forks("HotKeyBenchmark.t1", 1, "\"impl\":\"REFERENCE\"," + tb,
                30e6, 31e6, 31e6, 40e6) + "," + forks("FloorBenchmark.hotCasT1", 1, "", 300e6, 300e6) + "]");
        ForkStudy study = ForkStudy.read(contended).with(ForkStudy.read(oneThread));
        String report = report(dir, json, List.of(), study);

        // Medians: caller time 96M, the reference 31M: 3.10x.
        assertEquals("**met**", status(report, "Hot key, 1 thread, caller-supplied time"));
        assertEquals("**met**", status(report, "Hot key, 2 threads"));
        assertTrue(report.contains("| TOKEN_BUCKET | ADMIT | SLUICE_CALLER_TIME | 1 | 96.00 M | 60.00 M to 99.00 M | "
                + "31.00 M | 30.00 M to 40.00 M | 3.10x | 3.13x |"), report);
        assertTrue(report.contains("decides in 10.4 ns without a clock read (floor: 3.3 ns for a CAS alone)"), report);
    }

    @Test
    void explainsAMissOfFloorAByTheAlgorithmsWorkOnlyWhereItDoesMoreThanTheTokenBucket(@TempDir Path dir)
            throws Exception {
        Path oneThread = dir.resolve("forks-t1.json");
        // Floor (a) 30 ns. The token bucket: 31.3 ns with its clock (1.04x), 10 ns without. The counter: 36.4 ns
        // (1.21x), 9.1 ns without; the sliding log: 40 ns (1.33x), 20 ns without.
        Files.writeString(oneThread, "[" + forks("FloorBenchmark.hotClockCasT1", 1, "", 1e9 / 30, 1e9 / 30) + ","
                + oneThreadForks("SLUICE", "TOKEN_BUCKET", 32e6, 32e6) + ","
                + oneThreadForks("SLUICE_CALLER_TIME", "TOKEN_BUCKET", 100e6, 100e6) + ","
                + oneThreadForks("REFERENCE", "TOKEN_BUCKET", 20e6, 20e6) + ","
                + oneThreadForks("SLUICE", "SLIDING_WINDOW_COUNTER", 20e6, 25e6, 30e6, 31e6) + ","
                + oneThreadForks("SLUICE_CALLER_TIME", "SLIDING_WINDOW_COUNTER", 110e6, 110e6) + ","
                + oneThreadForks("SLUICE", "SLIDING_WINDOW_LOG", 25e6, 25e6) + ","
                + oneThreadForks("SLUICE_CALLER_TIME", "SLIDING_WINDOW_LOG", 50e6, 50e6) + "]");
        // Section 1 names the algorithms the report goes through.
        String json = "[" + hot("REFERENCE", 20e6, 0.0) + "," + row("HotKeyBenchmark.t1", 1, "\"impl\":\"REFERENCE\","
                + "\"algorithm\":\"SLIDING_WINDOW_COUNTER\",\"regime\":\"ADMIT\"", 10e6, 0.0) + ","
                + row("HotKeyBenchmark.t1", 1, "\"impl\":\"REFERENCE\",\"algorithm\":\"SLIDING_WINDOW_LOG\","
                + "\"regime\":\"ADMIT\"", 10e6, 0.0) + "]";
        String report = report(dir, json, List.of(), ForkStudy.read(oneThread));

        assertTrue(report.contains("SLIDING_WINDOW_COUNTER/ADMIT, 1 thread, own clock: 36.4 ns, 1.21x floor (a) (its "
                + "forks: 32.3 to 50.0 ns). Without the clock read it takes 9.1 ns, no more than the token bucket's "
                + "10.0 ns, which is within 1.15x with its own clock: on these medians the algorithm's own work does "
                + "not explain this miss; the spread of its own-clock forks does."), report);
        assertTrue(report.contains("SLIDING_WINDOW_LOG/ADMIT, 1 thread, own clock: 40.0 ns, 1.33x floor (a). Without "
                + "the clock read it takes 20.0 ns, the token bucket 10.0 ns: what is left above the floor is the "
                + "algorithm's own work."), report);
    }

    private static String oneThreadForks(String impl, String algorithm, double... forkMeans) {
        return forks("HotKeyBenchmark.t1", 1, "\"impl\":\"" + impl + "\",\"algorithm\":\"" + algorithm
                + "\",\"regime\":\"ADMIT\"", forkMeans);
    }

    @Test
    void boundsTheStringKeyTargetByTheStringFloors(@TempDir Path dir) throws Exception {
        String many = "\"distribution\":\"UNIFORM\",\"keys\":\"1000000\",\"keyType\":\"STRING\",\"impl\":";
        String floor = "\"distribution\":\"UNIFORM\",\"keys\":\"1000000\"";
        String json = "[" + row("ManyKeysBenchmark.t1", 1, many + "\"SLUICE\"", 2e6, 0.0) + ","
                + row("ManyKeysBenchmark.t1", 1, many + "\"REFERENCE\"", 1.25e6, 0.0) + ","
                + row("FloorBenchmark.coldStringClockCasT1", 1, floor, 2.5e6, 0.0) + ","
                + row("FloorBenchmark.coldStringBytesClockCasT1", 1, floor, 2.4e6, 0.0) + "]";
        String report = report(dir, json, List.of());

        // 500 ns against 800 ns: 1.6x, missed; 2x would be 400 ns, below the 417 ns of the character floor.
        assertEquals("**missed**", status(report, "1M uniform keys, 1 thread, String keys"));
        assertTrue(report.contains("costs 400 ns; hashing the string's characters instead"), report);
        assertTrue(report.contains("Sluice 500 ns (1.20x the character floor, 1.25x floor (c)), the reference 800 ns "
                + "(2.00x floor (c)). 2x the reference would be 400 ns, below the character floor."), report);
    }

    @Test
    void judgesManyKeyTargetsOnTheMedianOfForksWhenTheStudyRanThem(@TempDir Path dir) throws Exception {
        String many = "\"distribution\":\"UNIFORM\",\"keys\":\"1000000\",\"keyType\":\"STRING\",\"impl\":";
        String longs = "\"distribution\":\"UNIFORM\",\"keys\":\"1000000\",\"keyType\":\"LONG\",\"impl\":";
        String floor = "\"distribution\":\"UNIFORM\",\"keys\":\"1000000\"";
        // Section 2's single forks: Sluice's String fork ran while the host was busy (1.5x the reference only).
        String json = "[" + row("ManyKeysBenchmark.t1", 1, many + "\"SLUICE\"", 1.5e6, 0.0) + ","
                + row("ManyKeysBenchmark.t1", 1, many + "\"REFERENCE\"", 1e6, 0.0) + "]";
        assertEquals("**missed**", status(report(dir, json, List.of()), "1M uniform keys, 1 thread, String keys"));

        Path file = dir.resolve("forks-many.json");
        Files.writeString(file, "[" + forks("ManyKeysBenchmark.t1", 1, many + "\"SLUICE\"", 1.5e6, 2.9e6, 3.1e6, 3.2e6)
                + "," + forks("ManyKeysBenchmark.t1", 1, many + "\"REFERENCE\"", 1.4e6, 1.5e6, 1.5e6, 1.6e6) + ","
                + forks("ManyKeysBenchmark.t1", 1, longs + "\"SLUICE\"", 5e6, 5e6) + ","
                + forks("ManyKeysBenchmark.t1", 1, longs + "\"REFERENCE\"", 2e6, 2e6) + ","
                + forks("FloorBenchmark.coldClockCasT1", 1, floor, 8e6, 8e6) + ","
                + forks("FloorBenchmark.coldStringBytesClockCasT1", 1, floor, 3.2e6, 3.2e6) + "]");
        String report = report(dir, json, List.of(), ForkStudy.read(file));

        // Medians: Sluice 3.0M, the reference 1.5M: 2.00x, met; long keys 2.5x the reference, 1.6x floor (b).
        assertEquals("**met**", status(report, "1M uniform keys, 1 thread, String keys"));
        assertEquals("**missed**", status(report, "1M uniform keys, 1 thread, long keys: ≥ 3x"));
        assertTrue(report.contains("| 1M uniform keys, 1 thread, long keys: within 1.5x of floor (b) (median of 2 "
                + "forks, section 2b) | 1.60 | **missed** |"), report);
        assertTrue(report.contains("| STRING | SLUICE | 3.00 M | 1.50 M to 3.20 M | 2.00x | coldStringBytesClockCasT1 "
                + "| 3.20 M | 1.07x |"), report);
    }

    @Test
    void flagsAnAllocatingSluicePathAndOversizedKeys(@TempDir Path dir) throws Exception {
        String json = "[" + hot("SLUICE", 30e6, 24.0) + "]";
        List<String> memory = List.of(
                "SLUICE\tTOKEN_BUCKET\tLONG\t1000000\t100\t40000000\t0.0\t40.0\t",
                "GUAVA\tTOKEN_BUCKET\tLONG\t1000000\t-1\t-1\t-1\t-1\tOOM with -Xmx 16 MiB");
        String report = report(dir, json, memory);

        assertEquals("**missed**", status(report, "0 B/op"));
        assertEquals("**missed**", status(report, "≤ 32 bytes per key"));
        assertEquals("**met**", status(report, "0 heap bytes per key"));
        assertTrue(report.contains("| GUAVA | TOKEN_BUCKET | 1000000 | LONG | – | – | no result | OOM"), report);
    }

    @Test
    void keepsTheJfrSectionWhenTheRecordingsAreGoneAndTheReportIsRegenerated(@TempDir Path dir) throws Exception {
        Path recording = dir.resolve("jfr/HotKeyBenchmark.t1/profile.jfr");
        Files.createDirectories(recording.getParent());
        try (jdk.jfr.Recording r = new jdk.jfr.Recording()) {
            r.enable("jdk.ExecutionSample");
            r.start();
            r.stop();
            r.dump(recording);
        }
        String json = "[" + hot("SLUICE", 30e6, 0.0) + "]";
        String first = report(dir, json, List.of());
        assertTrue(first.contains("## JFR: where the time goes"), first);
        assertTrue(first.contains("`HotKeyBenchmark.t1`"), first);

        // run-report.sh deletes the recordings once summarised; the study's regeneration must not lose the section.
        Files.delete(recording);
        String regenerated = report(dir, json, List.of());
        assertTrue(regenerated.contains("## JFR: where the time goes"), regenerated);
        assertTrue(regenerated.contains("`HotKeyBenchmark.t1`"), regenerated);
    }

    @Test
    void labelsThroughputTicksInMillionsAndThousandsWithoutRoundingAwayATicksValue() {
        assertEquals("0", ReportGenerator.opsLabel(0));
        assertEquals("500k", ReportGenerator.opsLabel(500_000));
        assertEquals("20M", ReportGenerator.opsLabel(20_000_000));
        assertEquals("1.5M", ReportGenerator.opsLabel(1_500_000));
        assertEquals("2.5M", ReportGenerator.opsLabel(2_500_000));
        assertEquals("88.3M", ReportGenerator.opsLabel(88_300_000));
        assertEquals("250", ReportGenerator.opsLabel(250));
    }

    @Test
    void saysWhereTargetsAreJudgedOnlyInAShortProfile(@TempDir Path dir) throws Exception {
        for (String profile : List.of("quick", "full")) {
            Properties meta = new Properties();
            meta.setProperty("profile", profile);
            String report = report(dir, "[" + hot("SLUICE", 2.0e7, 0) + "]", List.of(), ForkStudy.none(),
                    ForkStudy.none(), meta);
            assertEquals(profile.equals("quick"), report.contains("This is a **quick** run"), report);
        }
    }

    /** A BackendBenchmark row as JMH writes it, with the JDK its forks ran on. */
    private static String backend(String method, String param, String backend, String jdk, double score) {
        return row("BackendBenchmark." + method, 1, "\"" + param + "\":\"" + backend + "\"", score, 0)
                .replace("\"mode\"", "\"jdkVersion\":\"" + jdk + "\",\"mode\"");
    }

    @Test
    void measuresFfmBesideUnsafeInItsOwnSectionOnTheJdkThatRanIt(@TempDir Path dir) throws Exception {
        Properties meta = new Properties();
        meta.setProperty("backendsJdk25", "2026-12-08 01:00 UTC, openjdk 25.0.1");
        String report = report(dir, "[" + String.join(",",
                backend("hotKeyT1", "backend", "VAR_HANDLE", "17.0.15", 2.0e7),
                backend("hotKeyT1", "backend", "UNSAFE", "17.0.15", 2.5e7),
                backend("hotKeyT1", "backend", "UNSAFE", "25.0.1", 3.0e7),
                backend("hotKeyT1", "backend", "FFM", "25.0.1", 2.4e7),
                backend("manyKeysT1NativeAccess", "memory", "UNSAFE", "25.0.1", 4.0e6),
                backend("manyKeysT1NativeAccess", "memory", "FFM", "25.0.1", 3.8e6)) + "]",
                List.of(), ForkStudy.none(), ForkStudy.none(), meta);
        int before = report.indexOf("## 5. Memory backends");
        int on25 = report.indexOf("## 5b. Memory backends on JDK 25.0.1 (FFM)");
        assertTrue(before >= 0 && on25 > before, report);
        String jdk17 = report.substring(before, on25);
        String jdk25 = report.substring(on25, report.indexOf("\n## ", on25 + 1));
        assertTrue(jdk17.contains("| hotKeyT1 | UNSAFE | 1 | 25.00 M |") && jdk17.contains("| 1.25x |"), jdk17);
        assertFalse(jdk17.contains("FFM |") || jdk17.contains("30.00 M"), jdk17);
        assertTrue(jdk25.contains("| hotKeyT1 | FFM | 1 | 24.00 M |") && jdk25.contains("| 0.80x |"), jdk25);
        assertTrue(jdk25.contains("| manyKeysT1NativeAccess | FFM | 1 | 3.80 M |") && jdk25.contains("| 0.95x |"),
                jdk25);
        assertTrue(jdk25.contains("Run: 2026-12-08 01:00 UTC, openjdk 25.0.1."), jdk25);
        assertFalse(jdk25.contains("25.00 M"), jdk25);
    }

    @Test
    void readsJmhNumbersIncludingNaN() {
        Object parsed = Json.parse("{\"a\":[1.5e3,-2,NaN,\"x\\\"y\",true,null],\"b\":{}}");
        Map<?, ?> map = (Map<?, ?>) parsed;
        List<?> a = (List<?>) map.get("a");
        assertEquals(1500.0, ((Number) a.get(0)).doubleValue());
        assertEquals(-2.0, ((Number) a.get(1)).doubleValue());
        assertTrue(Double.isNaN(((Number) a.get(2)).doubleValue()));
        assertEquals("x\"y", a.get(3));
        assertEquals(Boolean.TRUE, a.get(4));
        assertEquals(null, a.get(5));
        assertTrue(((Map<?, ?>) map.get("b")).isEmpty());
    }
}
