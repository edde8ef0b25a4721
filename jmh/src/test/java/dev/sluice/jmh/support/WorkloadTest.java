package dev.sluice.jmh.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkloadTest {

    @Test
    void zipfPutsTheHarmonicShareOnTheHottestKey() {
        int keys = 1000;
        int[] order = Workload.order(Distribution.ZIPF, keys);
        int[] counts = new int[keys];
        for (int k : order) {
            counts[k]++;
        }
        double harmonic = 0;
        for (int r = 1; r <= keys; r++) {
            harmonic += 1.0 / r;
        }
        // Rank 1 has probability 1/H(1000) ~ 13.4%, rank 2 half of that.
        assertEquals(1 / harmonic, (double) counts[0] / order.length, 0.002);
        assertEquals(0.5 / harmonic, (double) counts[1] / order.length, 0.002);
    }

    @Test
    void uniformCoversEveryKeyEvenly() {
        int keys = 1000;
        int[] counts = new int[keys];
        for (int k : Workload.order(Distribution.UNIFORM, keys)) {
            counts[k]++;
        }
        double expected = (double) Workload.SAMPLES / keys;
        for (int c : counts) {
            assertTrue(Math.abs(c - expected) < 0.1 * expected, "count " + c + " vs " + expected);
        }
    }
}
