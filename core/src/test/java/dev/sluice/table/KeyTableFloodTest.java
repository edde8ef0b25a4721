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
