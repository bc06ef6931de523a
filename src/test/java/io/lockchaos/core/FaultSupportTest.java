package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.fault.FaultKind;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FaultSupportTest {
    @Test
    void theFaultsPagesTableIsTheComputedOne() throws Exception {
        GeneratedSection.assertIs(FaultSupport.markdownTable(), Path.of("docs/faults.md"), "<!-- faults-by-backend:"
                + " generated from core/FaultSupport.java; FaultSupportTest checks it is this table -->",
                "<!-- /faults-by-backend -->", "regenerate the table from FaultSupport.markdownTable()");
    }

    @Test
    void theTableFollowsTheValidationsRefusals() {
        assertTrue(FaultSupport.supported(FaultKind.TRUNCATE_LOG, "ZooKeeper"));
        assertFalse(FaultSupport.supported(FaultKind.TRUNCATE_LOG, "Redis"), "Redis has no transaction log of ours");
        assertFalse(FaultSupport.supported(FaultKind.EXPIRE, "etcd"), "etcd holds leases, not sessions");
        assertTrue(FaultSupport.supported(FaultKind.FAILOVER, "PostgreSQL"));
        assertFalse(FaultSupport.supported(FaultKind.FAILOVER, "ZooKeeper"));
        assertTrue(FaultSupport.supported(FaultKind.PACKET_LOSS, "ZooKeeper"), "with cluster netns");
    }

    private static TestSpec spec(String recipe, String nodes, String nemesis) throws SpecException {
        return TestSpecs.validate("w.json", TestSpecs.with("w.json", TestSpec.DEFAULTS, java.util.Map.of("recipe",
                recipe, "nodes", nodes, "time_s", "30", "seed", "7", "nemesis", nemesis)));
    }

    @Test
    void combinedDrawsOnlyWhatTheWorkloadTakesAndTheSeedFixesTheDraw() throws Exception {
        TestSpec etcd = spec("etcd-lock", "3", "combined every 3s for 1s from 1s");
        java.util.List<io.lockchaos.fault.FaultEvent> events = etcd.schedule().events();
        assertEquals(10, events.size(), "at 1, 4, ..., 28 s");
        for (io.lockchaos.fault.FaultEvent e : events) {
            FaultKind k = e.fault().kind();
            assertTrue(FaultSupport.supported(k, "etcd"), e.toString());
            assertFalse(k == FaultKind.EXPIRE || k.movesClocks() || k.partitionsServers(), e.toString());
            assertFalse(e.fault().target().equals("releaser"), e.toString());
        }
        assertEquals(etcd.schedule().timeline(), spec("etcd-lock", "3", "combined every 3s for 1s from 1s")
                .schedule().timeline(), "the same seed draws the same schedule");
        java.util.Set<FaultKind> zk = new java.util.HashSet<>();
        FaultSupport.combinable(spec("mutex", "3", "combined every 3s for 1s")).forEach(f -> zk.add(f.kind()));
        assertTrue(zk.containsAll(java.util.List.of(FaultKind.EXPIRE, FaultKind.PARTITION_HALVES, FaultKind.KILL,
                FaultKind.CLOCK_JUMP)), zk.toString());
        assertFalse(zk.contains(FaultKind.PARTITION_RING), "a ring needs 5 servers");
        assertFalse(zk.stream().anyMatch(FaultSupport.NOT_COMBINED::contains), "no failover or disk fault");
    }

    @Test
    void combinedIntensitiesAreSchedulesInFull() throws Exception {
        assertEquals(spec("mutex", "3", "combined every 2s for 1s from 1s").schedule().timeline(),
                spec("mutex", "3", "combined high").schedule().timeline());
        assertEquals(spec("mutex", "3", "combined every 5s for 3s from 2s").schedule().timeline(),
                spec("mutex", "3", "combined").schedule().timeline());
        assertEquals(3, spec("mutex", "3", "combined low").schedule().events().size(), "at 2, 12 and 22 s");
    }

    @Test
    void combinedIsRefusedWithoutAWorkloadAndWithOverlappingFaults() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> io.lockchaos.fault.Schedule.parse("combined every 3s for 1s", 1, 10_000));
        assertTrue(e.getMessage().contains("it needs a workload"), e.getMessage());
        SpecException x = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> spec("mutex", "3", "combined every 1s for 2s"));
        assertTrue(x.getMessage().contains("would overlap"), x.getMessage());
    }

    @Test
    void diskFaultsAreRefusedWhereThereIsNoLogOfOursAndTxnsIsBounded() {
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> spec("redis-single", "1", "at 1s truncate-log all for 1s"));
        assertTrue(e.getMessage().startsWith("w.json: nemesis: truncate-log: disk faults change ZooKeeper servers'"),
                e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> spec("mutex", "3", "at 1s truncate-log all txns=0 for 1s"));
        assertEquals("w.json: nemesis: truncate-log: txns: expected 1 to 100000, got 0", e.getMessage());
    }

    @Test
    void membershipChangesNeedZooKeeperServersThatDialEachOtherDirectly() throws Exception {
        assertEquals(1, spec("mutex", "3", "at 1s remove-member leader for 2s").schedule().events().size());
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> spec("mutex", "1", "at 1s remove-member leader for 2s"));
        assertEquals("w.json: nemesis: remove-member: needs 3 or 5 nodes, got 1", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> spec("redlock", "3", "at 1s remove-member leader for 2s"));
        assertTrue(e.getMessage().startsWith("w.json: nemesis: remove-member: membership changes reconfigure"),
                e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                () -> spec("mutex", "3", "at 1s remove-member leader for 2s; at 4s partition halves for 1s"));
        assertEquals("w.json: nemesis: remove-member: one configuration for the whole ensemble cannot carry the"
                + " per-server addresses of peer proxies: cut servers apart with cluster netns (iptables)",
                e.getMessage());
        assertTrue(FaultSupport.supported(FaultKind.REMOVE_MEMBER, "ZooKeeper"));
        assertFalse(FaultSupport.supported(FaultKind.REMOVE_MEMBER, "etcd"));
        assertTrue(FaultSupport.NOT_COMBINED.contains(FaultKind.REMOVE_MEMBER), "combined partitions servers too");
    }
}
