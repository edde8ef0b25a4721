package dev.sluice.jmh.report;

import java.util.ArrayList;
import java.util.List;

/** One line of {@code memory.tsv}, written by {@link dev.sluice.jmh.MemoryPerKey}. */
final class MemoryRow {

    final String impl;
    final String algorithm;
    final String keyType;
    final int keys;
    final double heapPerKey;
    final double directPerKey;
    final String note;
    /** No measurement: the JVM ran out of memory or the implementation failed (see the note). */
    final boolean failed;

    private MemoryRow(String[] f) {
        impl = f[0];
        algorithm = f[1];
        keyType = f[2];
        keys = Integer.parseInt(f[3]);
        heapPerKey = Double.parseDouble(f[6]);
        directPerKey = Double.parseDouble(f[7]);
        note = f.length > 8 ? f[8] : "";
        failed = heapPerKey < 0;
    }

    double totalPerKey() {
        return heapPerKey + directPerKey;
    }

    static List<MemoryRow> parse(List<String> lines) {
        List<MemoryRow> rows = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (f.length >= 8 && !line.startsWith("#")) {
                rows.add(new MemoryRow(f));
            }
        }
        return rows;
    }
}
