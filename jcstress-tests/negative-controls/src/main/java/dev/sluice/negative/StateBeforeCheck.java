package dev.sluice.negative;

import dev.sluice.table.KeyTable;
import dev.sluice.table.OffHeapMemory;

/**
 * Deliberately broken: the publish step of a new string key in an empty slot with the check word written last, after
 * the state and the keyword, where the table writes it first. An updater of the slot's previous key with the same
 * keyword that reads the fresh state and the keyword can still read the previous key's check.
 */
final class StateBeforeCheck {

    private StateBeforeCheck() {
    }

    static void publish(KeyTable table, long handle, long keyword, long check, long fresh) {
        OffHeapMemory mem = table.memoryOf(handle);
        int slot = KeyTable.slotOf(handle);
        mem.putLongVolatile(table.stateOffset(slot), fresh);
        mem.putLongRelease(slot, keyword);
        mem.putLongPlain(slot + 8, check);
    }
}
