package dev.sluice.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.MemoryBackend;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hot path's lookup by slot ({@code memoryOfKey}, {@code findSlot}, {@code owns} by slot) agrees with the
 * handles.
 */
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

    private KeyTable table;

    private KeyTable open(boolean stringKeys) {
        table = new KeyTable(MemoryFactory.of(MemoryBackend.VAR_HANDLE), stringKeys, 4096, 0, FIVE, 0);
        return table;
    }

    @AfterEach
    void free() {
        table.free();
    }

    /** Puts long key {@code key} and returns its slot. */
    private int putLongKey(long key) {
        return KeyTable.slotOf(table.findOrPut(KeyHashing.mixLong(key, table.seed()), 0, 0));
    }

    @Test
    void findSlotFindsWhatFindOrPutPutInTheKeysStripeMemory() {
        open(false);
        for (long key = 0; key < 1000; key++) {
            long keyword = KeyHashing.mixLong(key, table.seed());
            int slot = putLongKey(key);
            OffHeapMemory mem = table.memoryOfKey(keyword);
            assertSame(table.memoryOf(table.find(keyword, 0)), mem);
            assertEquals(slot, table.findSlot(mem, keyword, 0));
            assertEquals(5, mem.getLongVolatile(table.stateOffset(slot)));
            assertTrue(table.owns(mem, slot, keyword, 0));
        }
        long absent = KeyHashing.mixLong(5000, table.seed());
        assertEquals(KeyTable.NO_SLOT, table.findSlot(table.memoryOfKey(absent), absent, 0));
        assertEquals(KeyTable.ABSENT, table.find(absent, 0));
    }

    @Test
    void longKeywordsZeroAndOneHaveTheirOwnSlotsWithoutBeingPut() {
        open(false);
        Set<Integer> slots = new HashSet<>();
        for (long key = 0; key < 1000; key++) {
            slots.add(putLongKey(key));
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
    }

    @Test
    void aStringKeysSlotNeedsBothLanesOfItsFingerprint() {
        open(true);
        long keyword = 0x1234_5678_9ABC_DEF0L;
        int slot = KeyTable.slotOf(table.findOrPut(keyword, 77, 0));
        OffHeapMemory mem = table.memoryOfKey(keyword);
        assertEquals(slot, table.findSlot(mem, keyword, 77));
        assertEquals(KeyTable.NO_SLOT, table.findSlot(mem, keyword, 78));
        assertFalse(table.owns(mem, slot, keyword, 78));
        assertTrue(table.owns(mem, slot, keyword, 77));
    }
}
