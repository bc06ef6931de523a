package io.lockchaos.hazelcastlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lockchaos.client.ClientContext;
import io.lockchaos.client.LockSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which members a client dials: all of them, or with {@code pin_member} the one its process number picks. */
class HazelcastFencedLockTest {
    private static ClientContext context(int process, Map<String, String> settings) {
        LockSettings s = new LockSettings("127.0.0.1:9001,127.0.0.1:9002,127.0.0.1:9003", "/k", false, List.of("/k"),
                3000, LockSettings.LEASE_MS, 1000, settings, false);
        return new ClientContext(s, () -> process, (st, id, why) -> { }, null);
    }

    @Test
    void aPinnedClientDialsOneMemberByItsProcessNumber() {
        assertEquals(List.of("127.0.0.1:9001", "127.0.0.1:9002", "127.0.0.1:9003"),
                HazelcastFencedLock.addresses(context(4, Map.of())));
        assertEquals(List.of("127.0.0.1:9002"), HazelcastFencedLock.addresses(context(4,
                Map.of("pin_member", "true"))));
        assertEquals(List.of("127.0.0.1:9001"), HazelcastFencedLock.addresses(context(6,
                Map.of("pin_member", "true"))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HazelcastFencedLock.addresses(context(0, Map.of("pin_member", "yes"))));
        assertEquals("lock_settings: pin_member: expected true or false, got 'yes'", e.getMessage());
    }
}
