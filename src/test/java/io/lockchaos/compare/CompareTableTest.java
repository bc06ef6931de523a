package io.lockchaos.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What compare reads from histories and sources, and what its table says: no servers. */
class CompareTableTest {
    private static final long S = 1_000_000_000L;

    private static History cutOff(long grantToOtherAt, long healAt) {
        List<Op> ops = new ArrayList<>();
        Map<String, Object> cut = Map.of("fault", "isolate-client", "target", "holder", "process", 0);
        ops.add(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "k", null));
        ops.add(Op.of(OpType.OK, S / 10, 0, Fn.ACQUIRE, "k", null));
        ops.add(Op.of(OpType.INVOKE, S / 5, 1, Fn.ACQUIRE, "k", null));
        ops.add(Op.of(OpType.INVOKE, S, Op.NEMESIS, Fn.PARTITION, null, cut));
        ops.add(Op.of(OpType.OK, S + S / 20, Op.NEMESIS, Fn.PARTITION, null, cut));
        if (grantToOtherAt < healAt) {
            ops.add(Op.of(OpType.OK, grantToOtherAt, 1, Fn.ACQUIRE, "k", null));
        }
        ops.add(Op.of(OpType.INVOKE, healAt, Op.NEMESIS, Fn.STOP, null, cut));
        ops.add(Op.of(OpType.OK, healAt + S / 20, Op.NEMESIS, Fn.STOP, null, cut));
        if (grantToOtherAt >= healAt) {
            ops.add(Op.of(OpType.OK, grantToOtherAt, 1, Fn.ACQUIRE, "k", null));
        }
        return History.ofValid(ops);
    }

    @Test
    void recoveryRunsFromTheCutToTheNextGrantToAnotherProcess() {
        Recovery during = Recovery.of(cutOff(3 * S + S / 20, 7 * S));
        assertEquals(2.0, during.seconds(), 1e-9);
        assertFalse(during.afterHeal());
        // a grant after the heal began is the old holder's connections coming back, not a recovery of the lock
        Recovery after = Recovery.of(cutOff(7 * S + S / 100, 7 * S));
        assertTrue(after.afterHeal());
        assertEquals(5.96, after.seconds(), 1e-9);
        assertNull(Recovery.of(History.ofValid(List.of(Op.of(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "k", null)))));
    }

    @Test
    void codeLinesLeaveOutCommentsBlankLinesAndImports() throws Exception {
        String src = "package a;\n\nimport b.C;\n/**\n * doc\n */\nclass X { // why\n    // note\n    int y;\n"
                + "    /* one */\n}\n";
        assertEquals(3, Comparison.codeLines(src));
        // the bundled sources are the jar's: the counts a user sees come from the code that ran
        assertTrue(Comparison.codeLines(Column.database().sources()) > 20);
        assertTrue(Comparison.codeLines(Column.zooKeeper().sources()) > 20);
    }

    @Test
    void lockTypesComeFromTheRecipesOfTheBackend() {
        assertEquals(List.of("exclusive", "reentrant", "semaphore", "read-write", "multi-lock", "leader election"),
                Comparison.lockTypes("reentrant-mutex"));
        assertTrue(Comparison.lockTypes("redis-single").contains("exclusive"));
        assertTrue(Comparison.lockTypes("pg-advisory").contains("reentrant"));
        assertFalse(Comparison.lockTypes("pg-advisory").contains("read-write"));
    }

    private static ColumnResult result(Column c, int doubles, Tally load, List<Recovery> rec) {
        Map<FaultClass, Tally> rel = new LinkedHashMap<>();
        for (FaultClass f : FaultClass.values()) {
            rel.put(f, new Tally(2, f == FaultClass.HOLDER_PAUSE ? doubles : 0, f == FaultClass.HOLDER_PAUSE
                    ? doubles : 0, 0, doubles > 0 && f == FaultClass.HOLDER_PAUSE ? Set.of("double-holder")
                    : Set.of()));
        }
        Map<Integer, Double> perf = new LinkedHashMap<>();
        perf.put(1, 31.4);
        perf.put(10, 97.0);
        return new ColumnResult(c, rel, load, perf, Map.of("naive-queue", 1.01),
                "watch notifications", 83, List.of("exclusive", "read-write"), rec, List.of(Path.of("r1")));
    }

    @Test
    void theTableSetsEveryClaimBesideItsMeasurementInBothFormats() {
        Plan plan = Plan.quick().withRuns(2);
        ColumnResult zk = result(Column.zooKeeper(), 2, new Tally(2, 0, 0, 0, Set.of()),
                List.of(new Recovery(2.0, false), new Recovery(2.4, false)));
        ColumnResult pg = result(Column.database(), 0, new Tally(2, 0, 1, 0, Set.of("leaked-lock")),
                List.of(new Recovery(6.0, true), new Recovery(Double.NaN, false)));
        Table t = new Table(plan, List.of(zk, pg), "on 20261204 with 2 cores");
        String md = t.markdown();
        List<String> rows = md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| |")).toList();
        assertEquals(Claim.values().length, rows.size(), md);
        assertTrue(md.contains("| Reliability (可靠性) | tutorial: high<br>measured: double holders in 2 of 6 runs"
                + " (holder-pause 2/2, holder-cut-off 0/2, server-kill 0/2) |"), md);
        assertTrue(md.contains("tutorial: low<br>measured: double holders in 0 of 6 runs (holder-pause 0/2,"
                + " holder-cut-off 0/2, server-kill 0/2); without faults, under load: invalid in 1 of 2 runs"
                + " (leaked-lock) |"), md);
        assertTrue(md.contains("31 acquires/s on 1 key, 97 acquires/s on 10 keys"), md);
        assertTrue(md.contains("next grant 2.4 s after the holder went silent (median of 2)"), md);
        assertTrue(md.contains("no grant while the holder was silent in 1 of 2 runs (only after its connections came"
                + " back); no grant at all in 1 of 2 runs"), md);
        assertTrue(md.contains("naive-queue: 1.01 watch notifications per grant"), md);
        assertTrue(md.contains("Deployments: ZooKeeper: Curator's InterProcessMutex on 3 servers"), md);
        String html = t.html();
        assertTrue(html.contains("<th>Herd effect<br>羊群效应</th>"), html);
        assertTrue(html.contains("<div class=\"claim\">tutorial: depends on the database</div>"), html);
        assertEquals(Claim.values().length + 1, html.split("<tr>", -1).length - 1, html);
    }

    @Test
    void aColumnWhoseBackendIsMissingIsRefusedBeforeAnyRun(@TempDir Path store) {
        String before = System.getProperty("lockchaos.etcd");
        System.setProperty("lockchaos.etcd", store.resolve("no-such-etcd").toString());
        try {
            Plan plan = new Plan(List.of(Column.zooKeeper(), Column.etcd()), List.of(FaultClass.values()), 1, 8, 100,
                    List.of(1, 10), 3);
            int[] runs = {0};
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Comparison(plan,
                    store, 1, new PrintStream(OutputStream.nullOutputStream()), s -> {
                        runs[0]++;
                        throw new AssertionError("no run may start");
                    }).run());
            assertEquals(0, runs[0]);
            assertEquals("etcd: " + io.lockchaos.etcd.EtcdServers.MISSING, e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        } finally {
            if (before == null) {
                System.clearProperty("lockchaos.etcd");
            } else {
                System.setProperty("lockchaos.etcd", before);
            }
        }
    }

    /** A fault-free run's folder: one grant and its release, 0.1 s apart. */
    private static ScenarioResult fakeRun(Scenario s, Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("history.jsonl"), String.join("\n",
                "{\"index\":0,\"time\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\",\"key\":\"k\"}",
                "{\"index\":1,\"time\":50000000,\"type\":\"ok\",\"process\":0,\"f\":\"acquire\",\"key\":\"k\"}",
                "{\"index\":2,\"time\":60000000,\"type\":\"invoke\",\"process\":0,\"f\":\"release\",\"key\":\"k\"}",
                "{\"index\":3,\"time\":100000000,\"type\":\"ok\",\"process\":0,\"f\":\"release\",\"key\":\"k\"}",
                ""));
        return new ScenarioResult(s.spec(), dir, CheckResult.of("fake", List.of(), Map.of()), List.of(), -1);
    }

    @Test
    void aComparisonStoppedByItsFifthRunStillTablesWhatTheFirstFourMeasured(@TempDir Path store) throws Exception {
        Column second = new Column("Second", "the same again", "reentrant-mutex", 3, Map.of(), List.of(),
                Column.zooKeeper().sources(), Column.zooKeeper().claims());
        Plan plan = new Plan(List.of(Column.zooKeeper(), second), List.of(FaultClass.values()), 1, 8, 100,
                List.of(1, 10), 3);
        int[] runs = {0};
        // runs 1-3 are the fault classes, 4 the load on 1 key; the 5th (10 keys) finds the machine lacking
        Comparison.Stopped e = assertThrows(Comparison.Stopped.class, () -> new Comparison(plan, store, 1,
                new PrintStream(OutputStream.nullOutputStream()), s -> {
                    if (++runs[0] == 5) {
                        throw new IllegalArgumentException("the servers are gone");
                    }
                    return fakeRun(s, store.resolve("run-" + runs[0]));
                }).run());
        assertEquals(5, runs[0]);
        assertEquals("ZooKeeper: the servers are gone", e.getMessage());
        assertEquals(2, e.partial().size());
        String md = new Table(plan, e.partial(), "on 20261206 with 2 cores").markdown();
        assertTrue(md.contains("measured: double holders in 0 of 3 runs (holder-pause 0/1, holder-cut-off 0/1,"
                + " server-kill 0/1) (incomplete: the comparison stopped here: ZooKeeper: the servers are gone)"), md);
        assertTrue(md.contains("measured: 10 acquires/s on 1 key (incomplete: the comparison stopped here:"
                + " ZooKeeper: the servers are gone)"), md);
        assertTrue(md.contains("measured: not measured (the comparison stopped here: ZooKeeper: the servers are"
                + " gone)"), md); // the herd row: its runs never came
        String reliability = md.lines().filter(l -> l.startsWith("| Reliability")).findFirst().orElseThrow();
        assertTrue(reliability.endsWith("measured: not measured (the comparison stopped before this column (in"
                + " ZooKeeper)) |"), reliability);
        assertTrue(md.contains("Not the whole plan: the comparison stopped here: ZooKeeper: the servers are gone."),
                md);
        assertEquals(4, e.partial().get(0).runs().size());
    }

    @Test
    void aRunThatCouldNotBeCarriedOutCountsAsUnknown() {
        assertEquals(new Tally(1, 0, 0, 1, Set.of()), Tally.NONE.plus(null));
    }

    @Test
    void anyRecipeGetsAColumnOfTheSamePlanOnItsServiceAsUsuallySetUp() {
        assertEquals(Column.zooKeeper(), Column.of("reentrant-mutex"), "a tutorial's recipe keeps its column");
        Column shed = Column.of("shedlock-jdbc");
        assertEquals(1, shed.nodes());
        assertEquals(Map.of("lease_ms", "2000"), shed.keys());
        assertTrue(shed.sources().isEmpty());
        assertEquals("not in the tutorial", shed.claims().get(Claim.RELIABILITY));
        Column naive = Column.of("naive-queue");
        assertEquals(3, naive.nodes(), "ZooKeeper decides by a majority");
        assertEquals("stop-on-suspended", naive.keys().get("client_mode"));
        assertEquals(3, Column.of("etcd-lock-fenced").nodes());
        assertEquals(1, Column.of("redisson").nodes(), "a single-instance Redis recipe on one instance");
        assertEquals(1, Column.of("shedlock-redis").nodes());
        assertEquals(1, Column.of("spring-redis").nodes());
        assertEquals(3, Column.of("spring-zookeeper").nodes());
        // a leader election runs in client agents, so that a paused leader stops whole, its callbacks with it
        Column latch = Column.of("leader-latch");
        assertEquals(3, latch.nodes());
        assertEquals(Map.of("client_mode", "stop-on-suspended", "session_timeout_ms", "2000", "curator", "5.9.0"),
                latch.keys());
        Plan p = Plan.quick().withColumns(List.of(shed, naive));
        assertEquals(List.of("shedlock-jdbc", "naive-queue"), p.columns().stream().map(Column::title).toList());
        assertEquals(Plan.quick().faults(), p.faults());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Column.of("spinlock")).getMessage()
                .startsWith("unknown recipe 'spinlock'"));
        assertEquals("--locks: name at least one recipe", assertThrows(IllegalArgumentException.class,
                () -> Plan.full().withColumns(List.of())).getMessage());
    }

    @Test
    void impossibleRunCountsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Plan.full().withRuns(0));
        assertEquals("--runs: expected 1 to 100, got 0", e.getMessage());
    }
}
