package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.MemoryBackend;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The hot path's lookup by slot ({@code memoryOfKey}, {@code findSlot}, {@code owns} by slot) agrees with the handles. */
class KeyTableSlotTest {

    /** A one-word lifecycle: fresh state 5, never idle. */
    private static final SlotLifecycle FIVE = new SlotLifecycle() {
        @Override
        public boolean isIdle(KeyTable table, long handle, long state, long t) {
            return false;
        }

        @Override
        public long freshState(long ring, long t, long previous) {
            return 5;
        }

        @Override
        public long ringOf(long state) {
            return -1;
        }
    };

    private static KeyTable table(boolean stringKeys) {
        return new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), stringKeys, 4096, 0, FIVE, 0);
    }

    @Test
    void findSlotFindsWhatFindOrPutPutInTheKeysStripeMemory() {
        KeyTable table = table(false);
        try {
            for (long key = 0; key < 1000; key++) {
                long keyword = KeyHashing.mixLong(key, table.seed());
                long handle = table.findOrPut(keyword, 0, 0);
                OffHeapMemory mem = table.memoryOfKey(keyword);
                assertSame(table.memoryOf(handle), mem);
                assertEquals(KeyTable.slotOf(handle), table.findSlot(mem, keyword, 0));
                assertEquals(5, mem.getLongVolatile(table.stateOffset(KeyTable.slotOf(handle))));
                assertTrue(table.owns(mem, KeyTable.slotOf(handle), keyword, 0));
            }
            long absent = KeyHashing.mixLong(5000, table.seed());
            assertEquals(KeyTable.NO_SLOT, table.findSlot(table.memoryOfKey(absent), absent, 0));
            assertEquals(KeyTable.ABSENT, table.find(absent, 0));
        } finally {
            table.free();
        }
    }

    @Test
    void longKeywordsZeroAndOneHaveTheirOwnSlotsWithoutBeingPut() {
        KeyTable table = table(false);
        try {
            Set<Integer> slots = new HashSet<>();
            for (long key = 0; key < 1000; key++) {
                slots.add(KeyTable.slotOf(table.findOrPut(KeyHashing.mixLong(key, table.seed()), 0, 0)));
            }
            int zero = table.findSlot(table.memoryOfKey(0), 0, 0);
            int one = table.findSlot(table.memoryOfKey(1), 1, 0);
            assertNotEquals(KeyTable.NO_SLOT, zero);
            assertNotEquals(zero, one);
            assertFalse(slots.contains(zero) || slots.contains(one), "a reserved slot was handed to another key");
            assertEquals(KeyTable.slotOf(table.find(0, 0)), zero);
            assertEquals(KeyTable.slotOf(table.find(1, 0)), one);
            assertEquals(5, table.memoryOfKey(1).getLongVolatile(table.stateOffset(one)));
            assertTrue(table.owns(table.memoryOfKey(0), zero, 0, 0));
        } finally {
            table.free();
        }
    }

    @Test
    void aStringKeysSlotNeedsBothLanesOfItsFingerprint() {
        KeyTable table = table(true);
        try {
            long keyword = 0x1234_5678_9ABC_DEF0L;
            long handle = table.findOrPut(keyword, 77, 0);
            OffHeapMemory mem = table.memoryOfKey(keyword);
            assertEquals(KeyTable.slotOf(handle), table.findSlot(mem, keyword, 77));
            assertEquals(KeyTable.NO_SLOT, table.findSlot(mem, keyword, 78));
            assertFalse(table.owns(mem, KeyTable.slotOf(handle), keyword, 78));
            assertTrue(table.owns(mem, KeyTable.slotOf(handle), keyword, 77));
        } finally {
            table.free();
        }
    }
}
