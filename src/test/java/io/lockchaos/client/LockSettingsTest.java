package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** lock_settings: read from a workload, checked once, and carried to an agent as the rest of the settings are. */
class LockSettingsTest {
    @Test
    void aWorkloadsLockSettingsAreTextByName() {
        assertEquals(Map.of("using_db_time", "true", "lock_at_most_for_ms", "3000", "table", "shedlock"),
                TestSpecs.lockSettings("{\"using_db_time\": true, \"lock_at_most_for_ms\": 3000,"
                        + " \"table\": \"shedlock\"}"));
        assertEquals(Map.of(), TestSpecs.lockSettings(""));
    }

    @Test
    void theyTravelToAnAgentWithTheRestAndAnOlderRequestHasNone() {
        LockSettings s = new LockSettings("127.0.0.1:1", "/k", false, List.of("/k"), 2000, 3000, 100,
                Map.of("using_db_time", "true"), true);
        assertEquals(s, LockSettings.fromWire(s.toWire()));
        LockSettings none = new LockSettings("127.0.0.1:1", "/k", false, List.of("/k"), 2000, 3000, 100);
        assertEquals(Map.of(), LockSettings.fromWire(none.toWire()).options());
        // no lease asked: the agent's lock sees the declaration's 10 s, and that none was asked
        LockSettings unasked = new LockSettings("127.0.0.1:1", "/k", false, List.of("/k"), 2000,
                LockSettings.LEASE_MS, 100, Map.of(), false);
        assertEquals(unasked, LockSettings.fromWire(unasked.toWire()));
        ClientContext ctx = new ClientContext(LockSettings.fromWire(unasked.toWire()), () -> 0, (st, id, why) -> { },
                null);
        assertEquals(java.util.Optional.empty(), ctx.leaseAsked());
        assertEquals(java.time.Duration.ofSeconds(10), ctx.lease());
        assertEquals(java.util.Optional.of(java.time.Duration.ofSeconds(3)), new ClientContext(s, () -> 0,
                (st, id, why) -> { }, null).leaseAsked());
    }

    @Test
    void theServersOwnAddressesMapToTheClientsProxiesInOrder() {
        LockSettings s = new LockSettings("127.0.0.1:9001,127.0.0.1:9002", "/k", false, List.of("/k"), 2000, 3000,
                100, Map.of(), true, "127.0.0.1:6379,127.0.0.1:6380");
        assertEquals(Map.of("127.0.0.1:6379", "127.0.0.1:9001", "127.0.0.1:6380", "127.0.0.1:9002"), s.routes());
        assertEquals(s, LockSettings.fromWire(s.toWire()), "an agent's client gets the same routes");
        assertEquals(s.routes(), new ClientContext(LockSettings.fromWire(s.toWire()), () -> 0, (st, id, why) -> { },
                null).routes());
        assertEquals(Map.of(), new LockSettings("127.0.0.1:9001", "/k", false, List.of("/k"), 2000, 3000, 100)
                .routes(), "none said, none known");
        assertEquals(Map.of(), new LockSettings("127.0.0.1:9001", "/k", false, List.of("/k"), 2000, 3000, 100,
                Map.of(), true, "127.0.0.1:6379,127.0.0.1:6380").routes(), "lists that do not pair up map nothing");
    }

    @Test
    void aWorkloadWithoutLeaseMsAsksForNoLeaseAndSaysSoInItsTestJson() throws Exception {
        TestSpec none = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "redis-single", "nodes", "1"));
        assertEquals(false, none.redis().leaseAsked());
        assertEquals(LockSettings.LEASE_MS, none.redis().leaseMillis(), "a built-in leased recipe takes 10 s");
        assertEquals("", none.toMap().get("lease_ms"), "test.json keeps 'none asked'");
        TestSpec asked = TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "redis-single", "nodes", "1",
                "lease_ms", "2500"));
        assertEquals(true, asked.redis().leaseAsked());
        assertEquals("2500", String.valueOf(asked.toMap().get("lease_ms")));
        assertEquals(asked.redis(), TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "redis-single", "nodes",
                "1", "lease_ms", String.valueOf(asked.toMap().get("lease_ms")))).redis(), "read back the same");
    }

    @Test
    void aBadOneIsOneLineBeforeAnythingStarts() {
        assertEquals("t: lock_settings: expected a JSON object of names and values, got '[1, 2]'",
                refusal("[1, 2]"));
        assertEquals("t: lock_settings: 'using db time' is not a setting's name (letters, digits, _ . -, at most 64)",
                refusal("{\"using db time\": true}"));
        assertEquals("t: lock_settings: table: expected a string, number or boolean, got {\"name\":\"x\"}",
                refusal("{\"table\": {\"name\": \"x\"}}"));
        assertEquals("t: lock_settings: expected a JSON object of names and values, e.g. {\"using_db_time\": true},"
                + " got '{using_db_time'", refusal("{using_db_time"));
    }

    private static String refusal(String text) {
        return assertThrows(SpecException.class, () -> TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("lock_settings", text))).getMessage();
    }
}
