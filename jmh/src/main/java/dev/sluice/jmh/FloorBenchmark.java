package dev.sluice.jmh;

import dev.sluice.jmh.support.Caller;
import dev.sluice.jmh.support.Distribution;
import dev.sluice.jmh.support.Workload;
import dev.sluice.table.KeyHashing;
import dev.sluice.table.SipHasher;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The physical floors, measured in the same run as the limiters. Hot: one {@code System.nanoTime()} and one CAS on a
 * padded cell (the least a decision on a hot key can cost), and the CAS alone with the caller's time. Cold: the same
 * on a random slot of a {@code long[]} as large as Sluice's table for {@code keys} long keys (32 bytes per key),
 * slots drawn from the same key orders as {@link ManyKeysBenchmark}. Cold strings: the same, with the slot chosen by
 * the request's key string, taken from the same array of a million names as {@link ManyKeysBenchmark}: by its cached
 * {@code hashCode()} (the least any keyed store of strings does: it reads the string object), by a hash of its
 * characters (what a store whose placement callers cannot steer must read as well), by Sluice's own keyed
 * fingerprint, or by that fingerprint with the slot's key word read and compared before the CAS (what a table that
 * tells keys apart must do before it updates a state), or by that fingerprint in a table shaped as Sluice's string
 * table and probed as it probes (24-byte slots at 3/4 load). The last three are diagnostics: they split the String-key
 * cost. Two more diagnostics: the sliding log's write protocol alone (claim CAS, ring write, release store of the
 * header), which splits the log's cost into its protocol and its decision; and the hot clock read and CAS retried
 * until the CAS succeeds, with the engine's backoff after a lost CAS, on 2 to 8 threads: a contended admission with
 * nothing of a limiter's decision in it, beside which the contended limiters are read.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class FloorBenchmark {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Bytes of Sluice's long-key table per key of capacity (two 16-byte slots): see KeyTable's class comment. */
    static final int TABLE_BYTES_PER_KEY = 32;

    @State(Scope.Benchmark)
    public static class Hot {
        final PaddedCell cell = new PaddedCell();
        /** As long as the sliding log's ring in HotKeyBenchmark's ADMIT regime (65,536 entries). */
        final long[] ring = new long[1 << 16];
    }

    @State(Scope.Benchmark)
    public static class Cold {
        @Param({"UNIFORM", "ZIPF"})
        public Distribution distribution;

        @Param("1000000")
        public int keys;

        long[] table;
        /** Per request, the index of the state word of the key's slot. */
        int[] slots;

        @Setup(Level.Trial)
        public void setUp() {
            int words = keys * (TABLE_BYTES_PER_KEY / Long.BYTES);
            int slotCount = words / 2;
            table = new long[words];
            int[] order = Workload.order(distribution, keys);
            slots = new int[order.length];
            for (int i = 0; i < order.length; i++) {
                // A key's slot is a hash of the key, as in the table: hot Zipf keys scatter over the whole array.
                slots[i] = stateWord(order[i], slotCount);
            }
        }
    }

    @State(Scope.Benchmark)
    public static class ColdStrings {
        @Param({"UNIFORM", "ZIPF"})
        public Distribution distribution;

        @Param("1000000")
        public int keys;

        /** Fixed keys for the diagnostics that hash as Sluice does. */
        final KeyHashing hashing = KeyHashing.of(0x5EED_CAFE_F00DL, 0x0123_4567_89AB_CDEFL, 0x7654_3210_FEDC_BA98L,
                0x0F1E_2D3C_4B5A_6978L, 0x1122_3344_5566_7788L);
        long[] table;
        String[] names;
        int[] order;

        @Setup(Level.Trial)
        public void setUp() {
            table = new long[keys * (TABLE_BYTES_PER_KEY / Long.BYTES)];
            names = Workload.names(keys);
            order = Workload.order(distribution, keys);
        }

        /** The state word of the slot that hash {@code h} selects. */
        int slot(long h) {
            return stateWord(h, table.length / 2);
        }
    }

    /**
     * The million names in a table shaped as Sluice's string-key table: 24-byte slots (key word, check word, state
     * word), 4/3 slots per key of capacity (32 bytes a key), linear probing from a home slot chosen by the key word,
     * every name put in at setup. A separate state so that only the benchmark that probes it pays its setup.
     */
    @State(Scope.Benchmark)
    public static class ProbedStrings {
        long[] words;
        int slots;

        @Setup(Level.Trial)
        public void setUp(ColdStrings cold) {
            slots = (int) (((long) cold.keys * 4 + 2) / 3);
            words = new long[slots * 3];
            for (String name : cold.names) {
                SipHasher h = sluiceHash(cold, name);
                long keyword = KeyHashing.keyword(h);
                long check = h.second();
                int w = home(keyword) * 3;
                while (words[w] != 0 && (words[w] != keyword || words[w + 1] != check)) {
                    w = next(w);
                }
                words[w] = keyword;
                words[w + 1] = check;
            }
        }

        /** As the table's home slot: 32 bits of the key word mapped onto the slots by a multiply and a shift. */
        int home(long keyword) {
            return (int) (((keyword & 0xFFFF_FFFFL) * slots) >>> 32);
        }

        /** The state word of the key's slot, found as the table finds it: probe the key words, compare both. */
        int stateWord(long keyword, long check) {
            int w = home(keyword) * 3;
            for (;;) {
                // Acquire, as the table reads a slot's key word.
                long k = (long) SLOTS.getAcquire(words, w);
                if (k == 0 || k == keyword && words[w + 1] == check) {
                    return w + 2; // every name is in the table: the empty case only mirrors the table's test
                }
                w = next(w);
            }
        }

        /** The key word of the slot after the one at {@code w}, wrapping at the end as linear probing does. */
        private int next(int w) {
            return w + 3 == words.length ? 0 : w + 3;
        }
    }

    /** The state word (the second of each slot's two words) of the slot that {@code key} hashes to. */
    private static int stateWord(long key, int slotCount) {
        long h = (key + 1L) * 0x9E3779B97F4A7C15L;
        return (int) ((h >>> 33) % slotCount) * 2 + 1;
    }

    /** A string key's hash as Sluice's table computes it (SipHash-1-3-128 over the UTF-8 of the chars). */
    static SipHasher sluiceHash(ColdStrings cold, String key) {
        SipHasher h = cold.hashing.stringKey();
        h.putUtf8(key);
        h.finish();
        return h;
    }

    /** A hash of every character of {@code key}: reads the string's contents, as a seeded content hash must. */
    private static int contentHash(String key) {
        int h = 0;
        for (int i = 0; i < key.length(); i++) {
            h = 31 * h + key.charAt(i);
        }
        return h;
    }

    /** Clock read plus one CAS advancing the word to at least the new time, as a limiter's transition does. */
    private static boolean casSlot(long[] table, int index, long now) {
        // Volatile read and CAS: the same orderings the engine's CAS loop uses.
        long old = (long) SLOTS.getVolatile(table, index);
        return SLOTS.compareAndSet(table, index, old, Math.max(old, now) + 1);
    }

    @Benchmark
    @Threads(1)
    public boolean hotClockCasT1(Hot hot) {
        return hot.cell.advance(System.nanoTime());
    }

    @Benchmark
    @Threads(2)
    public boolean hotClockCasT2(Hot hot) {
        return hot.cell.advance(System.nanoTime());
    }

    @Benchmark
    @Threads(4)
    public boolean hotClockCasT4(Hot hot) {
        return hot.cell.advance(System.nanoTime());
    }

    @Benchmark
    @Threads(8)
    public boolean hotClockCasT8(Hot hot) {
        return hot.cell.advance(System.nanoTime());
    }

    @Benchmark
    @Threads(2)
    public boolean hotBackoffClockCasT2(Hot hot) {
        return hot.cell.advanceWithBackoff(System.nanoTime());
    }

    @Benchmark
    @Threads(4)
    public boolean hotBackoffClockCasT4(Hot hot) {
        return hot.cell.advanceWithBackoff(System.nanoTime());
    }

    @Benchmark
    @Threads(8)
    public boolean hotBackoffClockCasT8(Hot hot) {
        return hot.cell.advanceWithBackoff(System.nanoTime());
    }

    @Benchmark
    @Threads(1)
    public boolean hotCasT1(Hot hot, Caller caller) {
        return hot.cell.advance(caller.tick());
    }

    /** Diagnostic: the sliding log's claim, ring write and publish, without its decision (caller time, 1 thread). */
    @Benchmark
    @Threads(1)
    public boolean hotClaimWritePublishT1(Hot hot, Caller caller) {
        return hot.cell.claimWritePublish(hot.ring, caller.tick());
    }

    @Benchmark
    @Threads(2)
    public boolean hotCasT2(Hot hot, Caller caller) {
        return hot.cell.advance(caller.tick());
    }

    @Benchmark
    @Threads(4)
    public boolean hotCasT4(Hot hot, Caller caller) {
        return hot.cell.advance(caller.tick());
    }

    @Benchmark
    @Threads(8)
    public boolean hotCasT8(Hot hot, Caller caller) {
        return hot.cell.advance(caller.tick());
    }

    @Benchmark
    @Threads(1)
    public boolean coldClockCasT1(Cold cold, Caller caller) {
        return casSlot(cold.table, cold.slots[caller.next()], System.nanoTime());
    }

    @Benchmark
    @Threads(2)
    public boolean coldClockCasT2(Cold cold, Caller caller) {
        return casSlot(cold.table, cold.slots[caller.next()], System.nanoTime());
    }

    @Benchmark
    @Threads(1)
    public boolean coldCasT1(Cold cold, Caller caller) {
        return casSlot(cold.table, cold.slots[caller.next()], caller.tick());
    }

    @Benchmark
    @Threads(2)
    public boolean coldCasT2(Cold cold, Caller caller) {
        return casSlot(cold.table, cold.slots[caller.next()], caller.tick());
    }

    @Benchmark
    @Threads(1)
    public boolean coldStringClockCasT1(ColdStrings cold, Caller caller) {
        String key = cold.names[cold.order[caller.next()]];
        return casSlot(cold.table, cold.slot(key.hashCode()), System.nanoTime());
    }

    @Benchmark
    @Threads(1)
    public boolean coldStringBytesClockCasT1(ColdStrings cold, Caller caller) {
        String key = cold.names[cold.order[caller.next()]];
        return casSlot(cold.table, cold.slot(contentHash(key)), System.nanoTime());
    }

    @Benchmark
    @Threads(1)
    public boolean coldStringSeededClockCasT1(ColdStrings cold, Caller caller) {
        String key = cold.names[cold.order[caller.next()]];
        SipHasher h = sluiceHash(cold, key);
        long keyword = h.first() ^ h.second();
        return casSlot(cold.table, cold.slot(keyword), System.nanoTime());
    }

    @Benchmark
    @Threads(1)
    public boolean coldStringProbedClockCasT1(ColdStrings cold, ProbedStrings table, Caller caller) {
        String key = cold.names[cold.order[caller.next()]];
        SipHasher h = sluiceHash(cold, key);
        long keyword = KeyHashing.keyword(h);
        long check = h.second();
        long now = System.nanoTime(); // after the hash and before the probe, where the engine reads it
        return casSlot(table.words, table.stateWord(keyword, check), now);
    }

    @Benchmark
    @Threads(1)
    public boolean coldStringCheckedClockCasT1(ColdStrings cold, Caller caller) {
        String key = cold.names[cold.order[caller.next()]];
        long keyword = KeyHashing.keyword(sluiceHash(cold, key));
        int state = cold.slot(keyword);
        // Acquire, as the table reads a slot's key word; the word before the state word stands for it.
        long stored = (long) SLOTS.getAcquire(cold.table, state - 1);
        return stored != keyword && casSlot(cold.table, state, System.nanoTime());
    }
}
