package io.lockchaos.api;

import java.util.List;

/**
 * What a lock's own storage still holds at the end of a run ({@link LockFactory#inspect}), for the leak checker:
 * what nothing will end (a row without an expiry, a key without a TTL) and what will end by itself (a lease still
 * running). A holder that is gone, or no longer holds, and still owns an entry of {@code left} leaked it.
 *
 * @param left entries that never go away by themselves
 * @param expiring entries that will (listed for the record: no leak)
 */
public record LockInspection(List<Entry> left, List<Entry> expiring) {
    public LockInspection {
        left = List.copyOf(left);
        expiring = List.copyOf(expiring);
    }

    /**
     * One entry.
     *
     * @param key the lock's name, as {@link LockContext#key} gave it
     * @param name the entry itself (a row's key, a node's path), as the history should show it
     * @param owner the session that owns it, as the lock reported it with {@link LockContext#session}; 0 for none
     */
    public record Entry(String key, String name, long owner) {
    }
}
