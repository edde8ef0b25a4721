package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.MemoryBackend;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Probe chains are bounded by design: a lookup reads at most {@link KeyTable#MAX_PROBES} slots, so
 * keys forced onto one placement cannot lengthen other keys' lookups nor crowd them out below capacity. The table's
 * keyword API is the hook that forces a placement: the keyed hash is bypassed and keywords are chosen directly.
 */
class KeyTableFloodTest {

    /** A one-word lifecycle whose keys never go idle: nothing is reclaimed, so every key must find its own slot. */
    private static final SlotLifecycle NEVER_IDLE = new SlotLifecycle() {
        @Override
        public boolean isIdle(KeyTable table, long handle, long state, long t) {
            return false;
        }

        @Override
        public long freshState(long ring, long t, long previous) {
            return 7;
        }

        @Override
        public long ringOf(long state) {
            return -1;
        }
    };

    private static KeyTable table(int capacity) {
        return new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), true, capacity, 0, NEVER_IDLE, 0);
    }

    /** Keywords that share a stripe (bits 48-63 zero) and a first home (equal low 32 bits), distinct in bits 32-47. */
    private static long floodKeyword(int i) {
        return ((long) (i + 1) << 32) | 0x1234_5678L;
    }

    private static long randomKeyword(SplittableRandom random) {
        long k;
        do {
            k = random.nextLong();
        } while (k == 0 || k == 1);
        return k;
    }

    @Test
    void thousandsOfKeysForcedOntoOnePlacementAreAllPutAndLegitimateKeysAreUnaffected() {
        int capacity = 1 << 16; // 16 stripes of 4,096 keys
        KeyTable table = table(capacity);
        try {
            SplittableRandom random = new SplittableRandom(42);
            int flood = 2_000;
            int legitimate = 30_000; // with the flood, stripe 0 holds about 3,900 keys: below its 4,096
            long[] legit = new long[legitimate];
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < legitimate; i++) {
                do {
                    legit[i] = randomKeyword(random);
                } while (!seen.add(legit[i]));
            }
            int l = 0;
            for (int i = 0; i < flood; i++) {
                assertNotEquals(KeyTable.FULL, table.findOrPut(floodKeyword(i), 5, 0), "flood key " + i);
                for (int j = 0; j < legitimate / flood && l < legitimate; j++, l++) {
                    assertNotEquals(KeyTable.FULL, table.findOrPut(legit[l], 9, 0), "legitimate key " + l);
                }
            }
            for (; l < legitimate; l++) {
                assertNotEquals(KeyTable.FULL, table.findOrPut(legit[l], 9, 0), "legitimate key " + l);
            }
            assertEquals(flood + legitimate, table.liveKeys());
            for (int i = 0; i < flood; i++) {
                assertNotEquals(KeyTable.ABSENT, table.find(floodKeyword(i), 5), "flood key " + i);
                assertEquals(KeyTable.ABSENT, table.find(floodKeyword(i), 6), "flood key " + i + ", other check");
            }
            for (int i = 0; i < legitimate; i++) {
                assertNotEquals(KeyTable.ABSENT, table.find(legit[i], 9), "legitimate key " + i);
            }
            Set<Long> handles = new HashSet<>();
            for (int i = 0; i < flood; i++) {
                assertTrue(handles.add(table.find(floodKeyword(i), 5)), "two flood keys share a slot");
            }
        } finally {
            table.free();
        }
    }

    /** The slots of a 4,096-key table's one stripe: 4/3 slots a key, rounded as the table rounds. */
    private static final int SLOTS_4096 = (4096 * 4 + 2) / 3;

    /** A lifecycle whose state is the key's last time: idle 100 ns after it. */
    private static final SlotLifecycle IDLE_AFTER_100 = new SlotLifecycle() {
        @Override
        public boolean isIdle(KeyTable table, long handle, long state, long t) {
            return state + 100 <= t;
        }

        @Override
        public long freshState(long ring, long t, long previous) {
            return t;
        }

        @Override
        public long ringOf(long state) {
            return -1;
        }
    };

    /**
     * Keywords that share both homes, {@code first} and {@code second}, in a 4,096-key table (one stripe of 5,462
     * slots): the second home is the high half of {@code keyword * 0x9E3779B97F4A7C15}, so a keyword is that
     * multiplier's inverse times a product whose high half is fixed, kept when its low half maps to {@code first}.
     */
    private static long[] keywordsSharingBothHomes(int n, int first, int second) {
        long inverse = 0x9E37_79B9_7F4A_7C15L;
        for (int i = 0; i < 5; i++) {
            inverse *= 2 - 0x9E37_79B9_7F4A_7C15L * inverse;
        }
        int slots = SLOTS_4096;
        long high = ((long) second << 32) / slots + 1; // maps to `second`: ceil(second * 2^32 / slots) rounds there
        long[] keywords = new long[n];
        int found = 0;
        for (long low = 0; found < n; low++) {
            long keyword = ((high << 32) | low) * inverse;
            if ((int) (((keyword & 0xFFFF_FFFFL) * slots) >>> 32) == first && keyword != 0
                    && keyword != 1) {
                keywords[found++] = keyword;
            }
        }
        return keywords;
    }

    @Test
    void keysWhoseTwoWindowsHoldLiveKeysOnlyGoToTheOverflowSlotsAndPastThemTheTableIsFull() {
        KeyTable table = table(4096);
        try {
            int fit = KeyTable.FIRST_WINDOW + KeyTable.SECOND_WINDOW + KeyTable.OVERFLOW_SLOTS;
            long[] forced = keywordsSharingBothHomes(fit + 1, 100, 3000);
            Set<Long> handles = new HashSet<>();
            for (int i = 0; i < fit; i++) {
                long handle = table.findOrPut(forced[i], 5, 0);
                assertNotEquals(KeyTable.FULL, handle, "forced key " + i);
                assertTrue(handles.add(handle), "two forced keys share a slot");
            }
            assertEquals(KeyTable.FULL, table.findOrPut(forced[fit], 5, 0), "windows and overflow slots all live");
            for (int i = 0; i < fit; i++) {
                assertTrue(handles.contains(table.find(forced[i], 5)), "forced key " + i + " is found where it was put");
            }
            // Keys elsewhere (neither home within 400 slots of the forced runs at 100 and 3000) are unaffected.
            SplittableRandom random = new SplittableRandom(3);
            for (int i = 0; i < 3000;) {
                long keyword = randomKeyword(random);
                int home = (int) (((keyword & 0xFFFF_FFFFL) * SLOTS_4096) >>> 32);
                int second = (int) ((((keyword * 0x9E37_79B9_7F4A_7C15L) >>> 32) * SLOTS_4096) >>> 32);
                if (home < 600 || second < 600 || Math.abs(home - 3000) < 400 || Math.abs(second - 3000) < 400) {
                    continue;
                }
                assertNotEquals(KeyTable.FULL, table.findOrPut(keyword, 9, 0), "random key " + i);
                i++;
            }
            assertEquals(fit + 3000, table.liveKeys());
        } finally {
            table.free();
        }
    }

    @Test
    void anIdleKeyInTheOverflowSlotsIsTakenOverByTheNextKeyThatNeedsThem() {
        KeyTable table = new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), true, 4096, 0, IDLE_AFTER_100, 0);
        try {
            int windows = KeyTable.FIRST_WINDOW + KeyTable.SECOND_WINDOW;
            int fit = windows + KeyTable.OVERFLOW_SLOTS;
            long[] forced = keywordsSharingBothHomes(fit + 1, 100, 3000);
            long[] handles = new long[fit];
            for (int i = 0; i < fit; i++) {
                handles[i] = table.findOrPut(forced[i], 5, 0);
            }
            for (int i = 0; i < windows; i++) { // the keys of both windows are used again at 1000; the overflow's not
                assertTrue(table.casState(handles[i], 0, 1000));
            }
            long late = table.findOrPut(forced[fit], 5, 1000);
            assertEquals(handles[windows], late, "the first idle overflow slot passes to the new key");
            assertEquals(KeyTable.ABSENT, table.find(forced[windows], 5), "the idle key it replaced is gone");
            assertEquals(fit, table.liveKeys());
            for (int i = 0; i < windows; i++) {
                assertEquals(handles[i], table.find(forced[i], 5), "live key " + i + " keeps its slot");
            }
        } finally {
            table.free();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 4096, 50_000, 300_000})
    void aTableFilledToItsCapacityWithRandomKeysRefusesNone(int capacity) {
        for (long seed = 0; seed < 5; seed++) {
            KeyTable table = table(capacity);
            try {
                SplittableRandom random = new SplittableRandom(seed * 7919 + capacity);
                for (int i = 0; i < capacity; i++) {
                    assertNotEquals(KeyTable.FULL, table.findOrPut(randomKeyword(random), 1 + i, 0),
                            "seed " + seed + " key " + i);
                }
                assertEquals(capacity, table.liveKeys());
            } finally {
                table.free();
            }
        }
    }
}
