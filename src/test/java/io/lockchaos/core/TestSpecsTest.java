package io.lockchaos.core;

import io.lockchaos.checker.Verdict;
import io.lockchaos.client.AfterUnknownCommit;
import io.lockchaos.client.ClientMode;
import io.lockchaos.client.DataFencing;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.UserLock;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.ssh.SshOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestSpecsTest {
    @TempDir
    Path dir;

    private static Map<String, String> text(TestSpec s) {
        Map<String, String> m = new LinkedHashMap<>();
        s.toMap().forEach((k, v) -> m.put(k, String.valueOf(v)));
        return m;
    }

    @Test
    void workloadFilesKeepTheirKeys() {
        assertEquals(List.of("name", "recipe", "lock_class", "lock_jar", "lock_promises", "lock_backend", "library_version", "lock_settings", "nodes", "clients", "keys", "time_s", "hold_ms", "acquire_timeout_ms",
                "session_timeout_ms", "tick_ms", "seed", "client_mode", "reentry_depth", "warmup_s", "hold_max_ms",
                "try_acquire_pct", "read_pct", "downgrade_pct", "rate", "nemesis", "quiesce_ms", "proxy", "partitioner", "expect",
                "cluster", "hosts", "client_hosts", "ssh_user", "ssh_key", "ssh_port", "ssh_known_hosts", "ssh_accept_new", "lease_ms", "redis_appendonly", "redis_timeout_ms", "pg_replication", "protected_data", "data_fencing", "data_replication", "after_unknown_commit", "after_unknown", "curator", "client_agents", "zookeeper", "first_server_id", "expect_by_curator", "expect_by_zookeeper", "expect_anomalies", "expect_no_anomalies", "acquire_slack_ms",
                "expect_memory_growth_mb",
                "open_tries", "stall_ms", "container_check_ms"),
                List.copyOf(TestSpec.DEFAULTS.toMap().keySet()));
    }

    @Test
    void theProtectedDataGoesToADatabaseOnlyWhereItCanAndItsFaultsNeedIt() throws Exception {
        TestSpec ok = TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("protected_data",
                "postgres", "data_fencing", "claim", "nemesis", "at 1s lose-commit holder for 2s; at 4s latency data"
                + " latency_ms=100 for 1s")));
        assertEquals("PostgreSQL", ok.dataService().name());
        assertEquals(DataFencing.CLAIM, ok.dataFencing());
        assertEquals(null, TestSpec.DEFAULTS.dataService(), "memory: the runner's");
        assertFalse(ok.schedule().needsPeerProxies(), "faults of the data path need no proxies between servers");
        TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("recipe", "pg-advisory-xact", "nodes",
                "1", "nemesis", "at 1s lose-commit holder for 2s"))); // its release commits the data
        Map<Map<String, String>, String> refused = Map.of(
                Map.of("protected_data", "mysql"), "w: protected_data: expected memory or postgres, got 'mysql'",
                Map.of("data_fencing", "token"), "w: data_fencing: token conditions writes to a database: it needs"
                        + " protected_data postgres",
                Map.of("protected_data", "postgres", "data_fencing", "always"), "w: data_fencing: expected none,"
                        + " token or claim, got 'always'",
                Map.of("protected_data", "postgres", "recipe", "semaphore:2"), "w: protected_data: semaphore:2 admits"
                        + " several holders at once, which run no critical section",
                Map.of("protected_data", "postgres", "cluster", "netns"), "w: protected_data: the database runs"
                        + " beside servers of cluster local, got cluster netns",
                Map.of("nemesis", "at 1s lose-commit holder for 1s"), "w: nemesis: lose-commit holder acts on the path"
                        + " to the protected data in a database: it needs protected_data postgres (or a lock that"
                        + " keeps it: pg-advisory-xact, etcd-lock-fenced)",
                Map.of("nemesis", "at 1s lose-commit holder for 1s", "recipe", "pg-advisory", "nodes", "1"), "w:"
                        + " nemesis: lose-commit holder acts on the path to the protected data in a database: it needs"
                        + " protected_data postgres (or a lock that keeps it: pg-advisory-xact, etcd-lock-fenced)",
                Map.of("protected_data", "postgres", "recipe", "pg-advisory-xact", "nodes", "1"), "w: protected_data:"
                        + " pg-advisory-xact keeps the data in the lock's own store, on its own server: leave"
                        + " protected_data out",
                Map.of("nemesis", "at 1s latency data for 1s"), "w: nemesis: latency data acts on the path to the"
                        + " protected data in a database: it needs protected_data postgres");
        for (Map.Entry<Map<String, String>, String> e : refused.entrySet()) {
            SpecException x = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w",
                    TestSpec.DEFAULTS, e.getKey())), e.getKey().toString());
            assertEquals(e.getValue(), x.getMessage());
        }
    }

    @Test
    void afterAnUnknownReleaseAndCuratorsRetriesAreCheckedWithTheirKeys() throws Exception {
        assertEquals("keep-client", TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("after_unknown", "keep-client"))).text("after_unknown"));
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w",
                TestSpec.DEFAULTS, Map.of("after_unknown", "keep"))));
        assertEquals("w: after_unknown: expected retire or keep-client, got 'keep'", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("recipe", "reentrant-mutex", "lock_settings", "{\"connection_timeout_ms\": 0}"))));
        assertEquals("w: lock_settings: connection_timeout_ms: expected a whole number from 1 to 600000, got '0'",
                e.getMessage());
    }

    @Test
    void aRetryAfterAnUnknownCommitIsForDataInADatabase() throws Exception {
        assertEquals(AfterUnknownCommit.RETRY_IF_ABSENT, TestSpecs.validate("w", TestSpecs.with("w",
                TestSpec.DEFAULTS, Map.of("protected_data", "postgres", "after_unknown_commit", "retry_if_absent")))
                .afterUnknownCommit());
        assertEquals(AfterUnknownCommit.RETIRE, TestSpec.DEFAULTS.afterUnknownCommit(), "Jepsen's way by default");
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w",
                TestSpec.DEFAULTS, Map.of("after_unknown_commit", "retry"))));
        assertEquals("w: after_unknown_commit: retry adds again what a commit to a database may have taken: it needs"
                + " protected_data postgres", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("protected_data", "postgres", "after_unknown_commit", "again"))));
        assertEquals("w: after_unknown_commit: expected retire, retry or retry_if_absent, got 'again'",
                e.getMessage());
    }

    @Test
    void theProtectedDatasServersTakeKillPauseIsolationAndAFailoverToItsReplica() throws Exception {
        TestSpec ok = TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("protected_data",
                "postgres", "data_replication", "async", "nemesis", "at 1s isolate data:2 for 3s; at 2s pause data:1"
                + " for 1s; at 3s kill data for 1s; at 4s failover data:2")));
        assertEquals("async", ok.dataReplication());
        List<Fault> faults = ok.schedule().events().stream().map(e -> e.fault()).toList();
        assertEquals(List.of(FaultKind.ISOLATE_SERVER, FaultKind.PAUSE,
                FaultKind.KILL, FaultKind.FAILOVER),
                faults.stream().map(Fault::kind).toList());
        assertTrue(faults.stream().allMatch(Fault::onDataServers));
        assertFalse(ok.schedule().needsPeerProxies() || ok.schedule().needsClientProxies(), "the data's servers are"
                + " cut at the data's own proxies, not the lock's");
        // one server, and no replica: a kill, a pause or a cut of data:1, the lock's faults beside them
        TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("protected_data", "postgres",
                "nemesis", "at 1s kill data:1 for 1s; at 3s isolate data:1 for 1s; at 5s pause-client holder for"
                + " 1s")));
        Map<Map<String, String>, String> refused = Map.of(
                Map.of("nemesis", "at 1s kill data for 1s"), "w: nemesis: kill data acts on the servers of the"
                        + " protected data in a database: it needs protected_data postgres",
                Map.of("data_replication", "async"), "w: data_replication: replicates the protected data in a"
                        + " database: it needs protected_data postgres",
                Map.of("protected_data", "postgres", "data_replication", "sync"), "w: data_replication: expected"
                        + " none, async or remote_apply, got 'sync'",
                Map.of("protected_data", "postgres", "nemesis", "at 1s failover data:2"), "w: nemesis: failover"
                        + " data:2: it promotes the protected data's replica: it needs data_replication async or"
                        + " remote_apply",
                Map.of("protected_data", "postgres", "data_replication", "async", "nemesis", "at 1s failover"
                        + " data:1"), "w: nemesis: failover data:1: name the replica that takes over: data:2 (data:1"
                        + " is the primary)",
                Map.of("protected_data", "postgres", "nemesis", "at 1s pause data:2 for 1s"), "w: nemesis: pause"
                        + " data:2: the protected data has one server, data:1",
                Map.of("protected_data", "postgres", "nemesis", "at 1s isolate data for 1s"), "w: nemesis: 'at 1s"
                        + " isolate data for 1s': isolate-server takes leader, follower, random or node:N (or data:N,"
                        + " a server of the protected data), not 'data'");
        for (Map.Entry<Map<String, String>, String> e : refused.entrySet()) {
            SpecException x = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w",
                    TestSpec.DEFAULTS, e.getKey())), e.getKey().toString());
            assertEquals(e.getValue(), x.getMessage());
        }
    }

    @Test
    void firstServerIdIsForZooKeeperServersThisMachineRuns() throws Exception {
        TestSpec ok = TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("first_server_id",
                "128")));
        assertEquals(128L, ok.number("first_server_id"));
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w",
                TestSpec.DEFAULTS, Map.of("first_server_id", "128", "recipe", "redis-single", "nodes", "1"))));
        assertEquals("w: first_server_id: sets the myid of ZooKeeper servers lockchaos starts as child JVMs (cluster"
                + " local or netns), got recipe redis-single", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("first_server_id", "128", "cluster", "container"))));
        assertEquals("w: first_server_id: sets the myid of ZooKeeper servers lockchaos starts as child JVMs (cluster"
                + " local or netns), got cluster container", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("first_server_id", "253"))));
        assertEquals("w: first_server_id: 3 servers from 253 pass 254, the highest myid ZooKeeper takes",
                e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("first_server_id", "251", "nemesis", "at 1s add-member count=2 for 1s"))));
        assertEquals("w: first_server_id: 5 servers from 251 pass 254, the highest myid ZooKeeper takes",
                e.getMessage(), "the newcomers count");
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("first_server_id", "0"))));
        assertTrue(e.getMessage().startsWith("w: first_server_id: "), e.getMessage());
    }

    @Test
    void newServersAreOneOrTwoPerRunOnServersThisMachineRuns() throws Exception {
        TestSpec ok = TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("nemesis",
                "at 1s add-member count=2 for 3s")));
        assertEquals(2, ok.schedule().newServers());
        assertEquals(1, TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS, Map.of("nemesis",
                "at 1s replace-member leader for 3s"))).schedule().newServers());
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w",
                TestSpec.DEFAULTS, Map.of("nemesis", "at 1s add-member count=3 for 3s"))));
        assertEquals("w: nemesis: add-member: count: expected 1 or 2, got 3", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("nemesis", "at 1s add-member count=2 for 1s; at 3s replace-member leader for 1s"))));
        assertEquals("w: nemesis: add-member, replace-member: 3 servers the ensemble never had; a run starts at most 2"
                + " (each joins once)", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("w", TestSpecs.with("w", TestSpec.DEFAULTS,
                Map.of("nemesis", "at 1s replace-member leader for 3s", "cluster", "container"))));
        assertEquals("w: nemesis: replace-member: membership changes reconfigure ZooKeeper servers this machine runs:"
                + " a ZooKeeper recipe on cluster local or netns", e.getMessage());
    }

    @Test
    void everyWorkloadFileSurvivesItsOwnKeys() throws Exception {
        // test.json is written from toMap and read back by key: nothing may be lost or changed on the way
        try (Stream<Path> files = Files.walk(Path.of("workloads"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                TestSpec s = TestSpecs.load(f);
                assertEquals(s, TestSpecs.with("again", TestSpec.DEFAULTS, text(s)), f.toString());
            }
        }
    }

    @Test
    void expectationsPerCuratorVersionPickTheFirstRangeThatMatches() throws Exception {
        TestSpec s = TestSpecs.load(Path.of("workloads/bugs/curator-621.json"));
        assertEquals(Optional.of(Verdict.VALID), s.expectedVerdict(), "the linked 5.9.0");
        TestSpec old = TestSpecs.with("t", s, Map.of("curator", "5.4.0"));
        assertEquals(Optional.of(Verdict.INVALID), old.expectedVerdict());
        assertEquals(Optional.of(Verdict.VALID), TestSpecs.with("t", s, Map.of("curator", "5.5.0")).expectedVerdict());
        assertEquals(Optional.of(Verdict.VALID), TestSpecs.with("t", s, Map.of("curator", "5.10.0")).expectedVerdict());
        assertEquals("<5.5.0 invalid; >=5.5.0 valid", s.checking().byCuratorText());
        assertTrue(CheckSpec.compareVersions("5.5.0-RC1", "5.5.0") < 0);
        assertEquals(0, CheckSpec.compareVersions("5.5", "5.5.0"));
        assertTrue(CheckSpec.compareVersions("5.10.0", "5.9.0") > 0);
        assertTrue(CheckSpec.compareVersions("5.5.0-RC2", "5.5.0-RC10") < 0);
        assertTrue(CheckSpec.compareVersions("5.5", "5.5.0-RC1") > 0);
        assertTrue(CheckSpec.compareVersions("5.5", "5.5.0.1") < 0);
        assertTrue(CheckSpec.compareVersions("5.99999999999999999999999.0", "5.9.0") > 0);
        SpecException e = assertThrows(SpecException.class,
                () -> TestSpecs.with("t", s, Map.of("expect_by_curator", "<5.x invalid")));
        assertEquals("t: expect_by_curator: '<5.x' is no version range (expected e.g. <5.5.0, >=5.5.0, 5.4.0 or"
                + " <3.5.4-beta)", e.getMessage());
    }

    @Test
    void expectationsPerZooKeeperReleaseComeBeforeThoseOfCurator() throws Exception {
        Path w = dir.resolve("zk.json");
        java.nio.file.Files.writeString(w, "{\"name\": \"zk\", \"expect\": \"valid\", \"expect_by_zookeeper\":"
                + " {\"<3.6.0\": \"invalid\"}, \"expect_by_curator\": {\"<5.5.0\": \"unknown\"}}");
        TestSpec s = TestSpecs.load(w);
        assertEquals("<3.6.0 invalid", s.checking().byZooKeeperText());
        assertEquals(Optional.of(Verdict.VALID), s.expectedVerdict(), "linked 3.9.5 servers, linked 5.9.0 clients");
        assertEquals(Optional.of(Verdict.INVALID), TestSpecs.with("t", s, Map.of("zookeeper", "3.5.10"))
                .expectedVerdict());
        assertEquals(Optional.of(Verdict.INVALID), TestSpecs.with("t", s, Map.of("zookeeper", "3.5.10", "curator",
                "5.4.0")).expectedVerdict(), "the server's range first");
        assertEquals(Optional.of(Verdict.UNKNOWN), TestSpecs.with("t", s, Map.of("zookeeper", "3.6.4", "curator",
                "5.4.0")).expectedVerdict());
        // a recipe on no ZooKeeper is judged without the servers' ranges
        assertEquals(Optional.of(Verdict.VALID), TestSpecs.with("t", s, Map.of("zookeeper", "3.5.10", "recipe",
                "redlock")).checking().expected("5.9.0", null));
        java.nio.file.Files.writeString(w, "{\"expect_by_zookeeper\": {\"<3.6.0\": 1}}");
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertEquals(w + ": expect_by_zookeeper: <3.6.0: expected a verdict as a string, got 1", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.with("t", s, Map.of("expect_by_zookeeper",
                ">=3.x valid")));
        assertEquals("t: expect_by_zookeeper: '>=3.x' is no version range (expected e.g. <5.5.0, >=5.5.0, 5.4.0 or"
                + " <3.5.4-beta)", e.getMessage());
        // ZooKeeper's 3.5 line has qualified releases: 3.5.3-beta is before 3.5.4-beta, which is before 3.5.4
        TestSpec beta = TestSpecs.with("t", s, Map.of("expect_by_zookeeper", "<3.5.4-beta invalid"));
        assertEquals(Optional.of(Verdict.INVALID), TestSpecs.with("t", beta, Map.of("zookeeper", "3.5.3-beta"))
                .expectedVerdict());
        assertEquals(Optional.of(Verdict.VALID), TestSpecs.with("t", beta, Map.of("zookeeper", "3.5.4-beta"))
                .expectedVerdict());
    }

    @Test
    void agentsAndDowngradesAreRefusedWhereTheyCannotRun() throws Exception {
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t",
                TestSpec.DEFAULTS, Map.of("curator", "5.4.0", "recipe", "redlock"))));
        assertEquals("t: curator: client agents run Curator's recipes; redlock is not one (use curator linked)",
                e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("curator", "5.4/../x"))));
        assertEquals("t: curator: expected linked or a version such as 5.4.0, got '5.4/../x'", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("downgrade_pct", "50"))));
        assertEquals("t: downgrade_pct: only a read/write lock (recipe rw) downgrades, got reentrant-mutex",
                e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("recipe", "rw", "downgrade_pct", "50", "reentry_depth", "2"))));
        assertEquals("t: downgrade_pct: writers downgrade an outer hold: it needs writers (read_pct below 100, got 50)"
                + " and reentry_depth 1 (got 2)", e.getMessage());
    }

    @Test
    void keysLandInTheirGroupsTyped() throws Exception {
        Path w = dir.resolve("w.json");
        Files.writeString(w, "{\"recipe\": \"semaphore:2\", \"nodes\": 5, \"tick_ms\": 100, \"clients\": 4,"
                + " \"session_timeout_ms\": 1000, \"client_mode\": \"stop-on-lost\", \"reentry_depth\": 2,"
                + " \"keys\": 2, \"time_s\": 3, \"warmup_s\": 1, \"hold_ms\": 5, \"hold_max_ms\": 9,"
                + " \"acquire_timeout_ms\": 70, \"try_acquire_pct\": 10, \"read_pct\": 20, \"rate\": 30,"
                + " \"nemesis\": \"at 1s expire holder\", \"quiesce_ms\": 0,"
                + " \"proxy\": \"http://127.0.0.1:8474\", \"expect\": \"invalid\", \"cluster\": \"container\"}");
        TestSpec s = TestSpecs.load(w);
        assertEquals(LockRecipe.semaphore(2), s.recipe());
        assertEquals(new ClusterSpec(ClusterKind.CONTAINER, 5, 100), s.cluster());
        assertEquals(new ClientSpec(4, 1000, ClientMode.STOP_ON_LOST, 2), s.clients());
        assertEquals(new WorkloadSpec(2, 3, 1, 5, 9, 70, 10, 20, 30), s.workload());
        assertEquals(new FaultSpec("at 1s expire holder", 0, new ToxiproxyChoice("http://127.0.0.1:8474"),
                PartitionerChoice.AUTO),
                s.faults());
        assertEquals(Verdict.INVALID, s.checking().expected().orElseThrow());
        assertTrue(TestSpec.DEFAULTS.checking().expected().isEmpty());
        assertTrue(TestSpec.DEFAULTS.faults().proxy().embedded());
    }

    @Test
    void expectAnyStatesNoVerdictAndKeepsItsSpelling() throws Exception {
        TestSpec s = TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("expect", "any",
                "expect_memory_growth_mb", "64"));
        assertTrue(s.checking().anyVerdict());
        assertTrue(s.expectedVerdict().isEmpty());
        assertEquals(64, s.checking().memoryGrowthMb());
        assertEquals("any", text(s).get("expect"));
        assertEquals(s, TestSpecs.with("w.json", TestSpec.DEFAULTS, text(s)), "the spec as written reads back");
        assertEquals("w.json: expect_memory_growth_mb: expected -1 (no check) or 0 to 1048576 (1 TB), got -3",
                assertThrows(SpecException.class, () -> TestSpecs.with("w.json", TestSpec.DEFAULTS,
                        Map.of("expect_memory_growth_mb", "-3"))).getMessage());
    }

    @Test
    void typedKeysNameTheKeyInOneLine() {
        Map<String, String> bad = Map.of("recipe", "mutx", "client_mode", "stop", "cluster", "k8s",
                "proxy", "ftp://x", "expect", "maybe");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            SpecException x = assertThrows(SpecException.class,
                    () -> TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of(e.getKey(), e.getValue())));
            assertTrue(x.getMessage().startsWith("w.json: " + e.getKey() + ": "), x.getMessage());
            assertTrue(x.getMessage().contains("'" + e.getValue() + "'"), x.getMessage());
            assertFalse(x.getMessage().contains("\n"));
        }
    }

    @Test
    void packetLossAndServerLatencyAreRefusedWhereTheyCannotBeMade() throws Exception {
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("t",
                TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("nemesis", "at 1s packet-loss servers percent=30 for 2s"))));
        assertTrue(e.getMessage().contains("needs cluster netns"), e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("cluster", "netns", "nemesis", "at 1s latency servers for 2s"))));
        assertTrue(e.getMessage().startsWith("t: nemesis: latency between servers cut with iptables needs netem"),
                e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("cluster", "netns", "nemesis", "at 1s packet-loss clients for 2s"))));
        assertTrue(e.getMessage().contains("takes the target servers"), e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("cluster", "vm")));
        assertEquals("t: cluster: expected local, container, netns or ssh, got 'vm'", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("cluster", "netns", "partitioner", "toxiproxy"))));
        assertTrue(e.getMessage().startsWith("t: partitioner: toxiproxy cannot reach servers in namespaces"),
                e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("partitioner", "iptables"))));
        assertEquals("t: partitioner: iptables needs servers with network namespaces of their own: cluster netns or"
                + " container", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("partitioner", "tc")));
        assertEquals("t: partitioner: expected auto, toxiproxy or iptables, got 'tc'", e.getMessage());
        TestSpec containers = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("cluster",
                "container", "partitioner", "iptables", "nemesis", "at 1s packet-loss servers percent=30 for 2s")));
        assertTrue(containers.cutsWithIptables());
        assertFalse(TestSpec.DEFAULTS.cutsWithIptables());
        // packet-loss takes only servers, so a timeline that names no target means them
        TestSpec loss = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("cluster", "netns",
                "nemesis", "at 2s packet-loss for 5s")));
        assertEquals("servers", loss.schedule().events().get(0).fault().target());
    }

    /** Each spec is refused with one line that starts as given. */
    private static void assertRefused(Map<Map<String, String>, String> refused) {
        for (Map.Entry<Map<String, String>, String> e : refused.entrySet()) {
            SpecException x = assertThrows(SpecException.class, () -> TestSpecs.validate("t",
                    TestSpecs.with("t", TestSpec.DEFAULTS, e.getKey())), e.getKey().toString());
            assertTrue(x.getMessage().startsWith(e.getValue()), x.getMessage());
            assertFalse(x.getMessage().contains("\n"));
        }
    }

    @Test
    void aSpecOfALockFromAJarIsBuiltFromItsKeysWithoutAskingTheLockAgain() throws Exception {
        // no such class on "."; asking the lock would fail, so a spec that builds has asked nothing
        TestSpec s = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("lock_class",
                "com.example.NoSuchLock", "lock_jar", ".", "lock_promises", "exclusive leased", "lock_backend",
                "redis", "nodes", "1")));
        assertEquals("exclusive leased", s.recipe().fromJar().promises().words());
        TestSpec derived = TestSpecs.validate("t", TestSpecs.with("t", s, Map.of("seed", "7", "time_s", "3")));
        assertEquals(s.recipe(), derived.recipe(), "a derived spec (explore, shrink, matrix) keeps the answer");
        assertEquals("redis", derived.toMap().get("lock_backend"));
    }

    @Test
    void zooKeepersOwnKeysAndFaultsAreJudgedByItsServiceOnItsRunsAndOnOthers() {
        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("zookeeper", "3.6; rm"), "t: zookeeper: expected linked or a version such as 3.8.4, got"
                + " '3.6; rm'");
        refused.put(Map.of("zookeeper", "3.6.4", "cluster", "ssh", "hosts", "a,b,c"), "t: zookeeper: the hosts run"
                + " the linked ZooKeeper (3.9.5)");
        refused.put(Map.of("zookeeper", "3.6.4", "cluster", "container"), "t: zookeeper: containers run the linked");
        refused.put(Map.of("zookeeper", "3.6.4", "recipe", "redis-single", "nodes", "1"), "t: zookeeper: a ZooKeeper"
                + " release is for ZooKeeper recipes; redis-single runs on redis");
        refused.put(Map.of("container_check_ms", "500", "cluster", "container"), "t: container_check_ms: sets a"
                + " system property of the ZooKeeper servers lockchaos starts as child JVMs (cluster local or netns),"
                + " got cluster container");
        refused.put(Map.of("container_check_ms", "500", "recipe", "etcd-lock"), "t: container_check_ms: sets a system"
                + " property of the ZooKeeper servers lockchaos starts as child JVMs (cluster local or netns), got recipe"
                + " etcd-lock");
        refused.put(Map.of("first_server_id", "2", "cluster", "ssh", "hosts", "a,b,c"), "t: first_server_id: sets the"
                + " myid of ZooKeeper servers lockchaos starts as child JVMs (cluster local or netns), got cluster ssh");
        refused.put(Map.of("first_server_id", "253", "nodes", "5"), "t: first_server_id: 5 servers from 253 pass 254");
        refused.put(Map.of("nemesis", "at 1s truncate-log leader txns=0 for 1s", "cluster", "container"), "t: nemesis:"
                + " truncate-log: disk faults change ZooKeeper servers' transaction logs");
        refused.put(Map.of("nemesis", "at 1s truncate-log leader txns=0 for 1s"), "t: nemesis: truncate-log: txns: expected 1"
                + " to 100000, got 0");
        refused.put(Map.of("nemesis", "at 1s remove-member leader for 1s", "recipe", "pg-lease", "nodes", "3"), "t: nemesis:"
                + " remove-member: membership changes reconfigure ZooKeeper servers this machine runs");
        assertRefused(refused);
    }

    @Test
    void sshHostsGiveTheNodesAndWhatSshCannotDoIsRefusedInOneLine() throws Exception {
        TestSpec five = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("cluster", "ssh",
                "hosts", "zk1, zk2,zk3,zk4,zk5", "nemesis", "at 1s partition-halves for 1s; at 3s isolate-client"
                        + " holder for 1s; at 5s kill leader for 1s; at 7s packet-loss servers for 1s")));
        assertEquals(5, five.cluster().nodes(), "nodes follows the hosts");
        assertTrue(five.cluster().ssh());
        assertTrue(five.cutsWithIptables(), "servers on hosts are cut apart with the hosts' iptables");
        assertEquals(List.of("zk1", "zk2", "zk3", "zk4", "zk5"), SshOptions.hosts(five.text("hosts")));
        assertTrue(TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("cluster", "ssh", "hosts",
                "a,b,c", "nemesis", "at 1s clock-jump leader by_ms=60000 for 2s"))).schedule().events().get(0).fault()
                .movesServerClocks(), "server clocks move on hosts too (the library is uploaded)");
        TestSpec remote = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("cluster", "ssh",
                "hosts", "a,b,c", "client_hosts", "c1,c2", "ssh_user", "deploy", "ssh_port", "2222",
                "ssh_accept_new", "true", "nemesis", "at 1s partition-halves for 1s; at 3s expire holder")));
        assertTrue(remote.inAgents(), "clients on client_hosts run in agents there");
        assertEquals(2222, Runner.sshOptions(remote).port());
        assertEquals("deploy", Runner.sshOptions(remote).user());
        assertTrue(Runner.sshOptions(remote).acceptNew());

        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("cluster", "ssh"), "t: hosts: cluster ssh needs the hosts, one server each");
        refused.put(Map.of("hosts", "a,b,c"), "t: hosts: names hosts of cluster ssh, got cluster local");
        refused.put(Map.of("client_hosts", "c1"), "t: client_hosts: names hosts of cluster ssh, got cluster local");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b"), "t: nodes: expected 1, 3 or 5, got 2");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "nodes", "5"), "t: hosts: 3 hosts for nodes 5");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,a,b"), "t: hosts: a host is named twice: a,a,b");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,-c"), "t: hosts: '-c' is not a host name");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "recipe", "redlock"), "t: cluster: ssh runs ZooKeeper"
                + " servers; redlock runs on redis");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "zookeeper", "3.8.4"), "t: zookeeper: the hosts run"
                + " the linked ZooKeeper");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "nemesis", "at 1s truncate-log follower for 1s"),
                "t: nemesis: truncate-log follower: disk faults edit the servers' transaction logs");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "nemesis", "at 1s remove-member follower for 1s"),
                "t: nemesis: remove-member follower: membership changes reconfigure servers this machine runs");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "nemesis", "at 1s bandwidth servers for 1s"),
                "t: nemesis: bandwidth servers: a bandwidth limit between servers replaces the queue");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "partitioner", "toxiproxy"), "t: partitioner:"
                + " toxiproxy cannot reach servers on other hosts");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "client_hosts", "c1", "nemesis",
                "at 1s isolate-client holder for 1s"), "t: nemesis: isolate-client holder: cuts a client's proxy on"
                + " this machine; clients on client_hosts connect to the servers directly");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "client_hosts", "c1", "nemesis",
                "at 1s pause-client holder for 1s"), "t: nemesis: pause-client holder:");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "client_hosts", "c1", "curator", "5.4.0"),
                "t: client_hosts: agents on client hosts run lockchaos' own recipes on the linked Curator");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "ssh_port", "0"), "t: ssh_port: expected 1 to 65535,"
                + " got 0");
        refused.put(Map.of("cluster", "ssh", "hosts", "a,b,c", "ssh_accept_new", "yes"), "t: ssh_accept_new:"
                + " expected true or false, got 'yes'");
        assertRefused(refused);
    }

    @Test
    void aLibrarysRecipeRunsInAgentsOnTheReleaseItResolvesAndItsKeysAreRefusedElsewhere() throws Exception {
        TestSpec s = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "shedlock-jdbc",
                "nodes", "1", "lock_settings", "{\"using_db_time\": true}")));
        assertTrue(s.inAgents(), "the library loads in client agents only");
        assertTrue(s.recipe().postgres());
        assertEquals("io.lockchaos.shedlock.ShedLockJdbc", s.recipe().user().className());
        assertEquals(List.of(), s.recipe().user().classpath(), "a spec is data: the release is resolved by the run");
        UserLock agents = LibraryLocks.agentsLock(s);
        assertEquals(s.recipe().user().className(), agents.className());
        assertTrue(agents.classpath().stream().anyMatch(j -> j.endsWith("shedlock-provider-jdbc-template-6.3.1.jar")),
                agents.classpath().toString());
        assertTrue(agents.classpath().stream().anyMatch(j -> j.contains("postgresql-")), "the driver beside it: "
                + agents.classpath());
        assertEquals("exclusive leased", s.recipe().promises().promises().words());
        Map<String, Object> written = s.toMap();
        assertEquals("", written.get("lock_class"), "a library's recipe is not a lock from a jar: test.json names"
                + " the recipe, and the classpath is resolved again from its version");
        assertEquals("", written.get("lock_jar"));
        TestSpec again = TestSpecs.with("t", s, Map.of());
        assertEquals(s.recipe().user(), again.recipe().user());
        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("recipe", "pg-lease", "nodes", "1", "library_version", "6.3.1"), "t: library_version:"
                + " recipe pg-lease wraps no library");
        refused.put(Map.of("recipe", "shedlock-jdbc", "nodes", "1", "library_version", "6.3.1; rm"), "t:"
                + " library_version: shedlock-jdbc: '6.3.1; rm' is not a version");
        refused.put(Map.of("lock_class", "com.example.Lock", "lock_jar", ".", "library_version", "6.3.1"), "t:"
                + " library_version: a lock from your jar brings its library in lock_jar");
        assertRefused(refused);
    }

    @Test
    void whatEtcdCannotDoIsRefusedInOneLineNamingTheKey() throws Exception {
        TestSpec s = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe",
                "etcd-lock-fenced", "nodes", "3", "lease_ms", "2000", "nemesis",
                "at 1s kill leader for 1s; at 3s pause-client holder for 3s; at 7s isolate-client waiter for 1s")));
        assertTrue(s.recipe().etcd());
        assertFalse(s.recipe().zooKeeper());
        assertTrue(TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "etcd-lock",
                "nodes", "5", "cluster", "netns", "lease_ms", "2000", "nemesis", "at 1s partition halves for 1s;"
                        + " at 3s isolate-server leader for 1s; at 5s packet-loss servers for 1s"))).cutsWithIptables(),
                "members in namespaces are cut apart by iptables");
        assertEquals("etcd member(s)", s.recipe().servers());
        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("recipe", "etcd-lock", "cluster", "container"), "t: cluster: etcd-lock runs on local etcd"
                + " members (cluster local, or netns), not container");
        refused.put(Map.of("recipe", "etcd-lock", "nodes", "2"), "t: nodes: expected 1, 3 or 5, got 2");
        refused.put(Map.of("recipe", "etcd-lock", "nemesis", "at 1s expire holder"), "t: nemesis: expire holder:"
                + " etcd locks hold a lease");
        refused.put(Map.of("recipe", "etcd-lock", "nemesis", "at 1s partition halves for 1s"), "t: nemesis:"
                + " partition-halves: etcd members talk to each other directly here (each is told one peer address per"
                + " member, so there is no per-pair proxy to cut): run them in network namespaces (cluster netns)");
        refused.put(Map.of("recipe", "etcd-lock", "nemesis", "at 1s clock-jump node:1 for 1s"), "t: nemesis:"
                + " clock-jump node:1: etcd is a Go program");
        refused.put(Map.of("recipe", "etcd-lock", "reentry_depth", "2"), "t: reentry_depth: etcd-lock is not"
                + " reentrant");
        assertRefused(refused);
    }

    @Test
    void clientAgentsRunEtcdClientsWhoseWaitersThenPauseAndAnythingElseIsRefusedInOneLine() throws Exception {
        TestSpec s = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "etcd-lock",
                "clients", "3", "lease_ms", "2000", "client_agents", "true", "nemesis",
                "at 1s pause-client waiter for 5s; at 7s pause-client next-waiter for 1s; at 9s clock-jump clients"
                        + " for 1s")));
        assertTrue(s.inAgents());
        assertTrue(s.flag("client_agents"));
        assertFalse(TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "etcd-lock")))
                .inAgents());
        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("client_agents", "yes"), "t: client_agents: expected true or false, got 'yes'");
        refused.put(Map.of("client_agents", "true"), "t: client_agents: etcd recipes run in client agents on"
                + " lockchaos' own classpath; reentrant-mutex runs in them with curator VERSION (drop client_agents)");
        refused.put(Map.of("recipe", "redlock", "nodes", "5", "client_agents", "true"), "t: client_agents: etcd"
                + " recipes run in client agents on lockchaos' own classpath; redlock's clients run in the runner's"
                + " JVM (drop client_agents)");
        refused.put(Map.of("recipe", "etcd-lock", "clients", "3", "nemesis", "at 1s pause-client waiter for 1s"),
                "t: nemesis: pause-client waiter: a waiter pauses as its own client agent stops: a lock of your own"
                        + " (lock_class), curator VERSION, or client_agents true for an etcd recipe; etcd-lock's"
                        + " clients run in the runner's JVM");
        refused.put(Map.of("recipe", "etcd-lock", "clients", "17", "client_agents", "true", "nemesis",
                "at 1s pause-client next-waiter for 1s"), "t: nemesis: pause-client next-waiter: a waiter has an agent"
                + " of its own only with clients 2 to 16, got 17");
        refused.put(Map.of("curator", "5.4.0", "clients", "1", "nemesis", "at 1s pause-client waiter for 1s"),
                "t: nemesis: pause-client waiter: a waiter has an agent of its own only with clients 2 to 16, got 1");
        refused.put(Map.of("recipe", "etcd-lock", "nemesis", "at 1s clock-jump clients for 1s"), "t: nemesis:"
                + " clock-jump clients: client clocks move in client agents: a lock of your own (lock_class), curator"
                + " VERSION, or client_agents true for an etcd recipe; etcd-lock's clients run in the runner's JVM");
        assertRefused(refused);
    }

    @Test
    void redisKeysAreTypedAndWhatRedisCannotDoIsRefusedNamingTheKey() throws Exception {
        TestSpec s = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "redlock",
                "nodes", "5", "lease_ms", "2500", "redis_appendonly", "true", "redis_timeout_ms", "50")));
        assertEquals(new RedisSpec(2500, true, 50), s.redis());
        assertTrue(s.recipe().redis());
        assertEquals(0, s.quiesce(), "no faults, no quiesce");
        assertEquals(1000, TestSpecs.validate("t", TestSpecs.with("t", s, Map.of("nemesis",
                "at 1s kill node:1 for 1s"))).quiesce(), "a second after the faults (the probes wait out a lease)");
        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("recipe", "redis-single", "nodes", "3"), "t: nodes: redis-single locks on one instance");
        refused.put(Map.of("recipe", "redlock", "cluster", "container"), "t: cluster: redlock runs on local Redis");
        refused.put(Map.of("recipe", "redlock", "lease_ms", "5"), "t: lease_ms: expected 10 to 600000, got 5");
        refused.put(Map.of("recipe", "redlock", "reentry_depth", "2"), "t: reentry_depth: redlock is not reentrant");
        refused.put(Map.of("recipe", "redlock", "nemesis", "at 1s expire holder"), "t: nemesis: expire holder:"
                + " Redis locks have no sessions");
        refused.put(Map.of("recipe", "redlock", "nemesis", "at 1s partition halves for 1s"), "t: nemesis:"
                + " partition-halves: Redis instances do not talk to each other");
        refused.put(Map.of("recipe", "redlock", "nemesis", "at 1s kill leader for 1s"), "t: nemesis: 'at 1s kill"
                + " leader for 1s': Redis instances have no leader");
        refused.put(Map.of("cluster", "container", "nemesis", "at 1s clock-jump node:1 for 1s"), "t: nemesis:"
                + " clock-jump node:1: the clock library moves the clocks of servers this machine starts");
        refused.put(Map.of("nemesis", "at 1s clock-jump leader by_ms=-90000000 for 1s"), "t: nemesis: clock-jump"
                + " leader: by_ms: expected -86400000 to 86400000 (a day), got -90000000");
        refused.put(Map.of("nemesis", "at 1s clock-strobe all period_ms=5 for 1s"), "t: nemesis: clock-strobe all:"
                + " period_ms: expected 10 to 60000, got 5");
        refused.put(Map.of("nemesis", "at 1s latency clients latency_ms=-5 for 1s"), "t: nemesis: 'at 1s latency"
                + " clients latency_ms=-5 for 1s': latency_ms must not be negative");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "1", "nemesis",
                "at 1s clock-jump node:1 by_ms=90000000 for 1s"),
                "t: nemesis: clock-jump node:1: by_ms: expected -86400000 to 86400000 (a day), got 90000000");
        assertRefused(refused);
        SpecException x = assertThrows(SpecException.class, () -> TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("redis_appendonly", "yes")));
        assertEquals("t: redis_appendonly: expected true or false, got 'yes'", x.getMessage());
        // a ZooKeeper server's clock moves (its sessions are timed on the monotonic clock: that is what to show)
        TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("nemesis",
                "at 1s clock-jump leader by_ms=60000 for 1s; at 3s clock-strobe all by_ms=-1000 period_ms=10 for 1s")));
        // a database's clock moves like a Redis instance's
        TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "pg-lease", "nodes", "1",
                "nemesis", "at 1s clock-jump node:1 by_ms=30000 for 1s")));
        // a mix draws its targets: a drawn leader is not the user's mistake, and fails at run time as recorded
        TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "redlock", "nemesis",
                "mix kill,pause every 2s for 1s")));
    }

    @Test
    void aPostgresReplicaTakesAFailoverAndEverythingElseAboutReplicasIsRefusedNamingTheKey() throws Exception {
        TestSpec s = TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "pg-lease",
                "nodes", "2", "pg_replication", "remote_apply", "nemesis",
                "at 1s partition-halves for 3s; at 2s failover node:2")));
        assertEquals("remote_apply", s.text("pg_replication"));
        assertEquals("remote_apply", s.toMap().get("pg_replication"));
        Map<Map<String, String>, String> refused = new java.util.LinkedHashMap<>();
        refused.put(Map.of("recipe", "pg-lease", "pg_replication", "sync"), "t: pg_replication: expected none, async"
                + " or remote_apply, got 'sync'");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "2"), "t: nodes: pg-lease locks on one PostgreSQL server"
                + " unless pg_replication gives it replicas: nodes 1, got 2");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "1", "pg_replication", "async"), "t: nodes: pg_replication"
                + " async needs a primary and 1 to 4 replicas: nodes 2 to 5, got 1");
        refused.put(Map.of("recipe", "mutex", "pg_replication", "async"), "t: pg_replication: replicas are"
                + " PostgreSQL's: mutex takes none");
        refused.put(Map.of("recipe", "mutex", "pg_replication", "sync"), "t: pg_replication: expected none, async"
                + " or remote_apply, got 'sync'");
        refused.put(Map.of("recipe", "pg-lease", "lease_ms", "5"), "t: lease_ms: expected 10 to 600000, got 5");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "1", "reentry_depth", "2"), "t: reentry_depth: pg-lease is not"
                + " reentrant: 1, got 2");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "1", "nemesis", "at 1s failover node:2"), "t: nemesis:"
                + " failover node:2: it promotes a PostgreSQL replica: it needs a PostgreSQL recipe with"
                + " pg_replication");
        refused.put(Map.of("nemesis", "at 1s failover node:2"), "t: nemesis: failover node:2: it promotes a"
                + " PostgreSQL replica");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "2", "pg_replication", "async", "nemesis",
                "at 1s failover node:1"), "t: nemesis: failover node:1: name the replica that takes over: node:2 to"
                + " node:2 (node 1 is the primary)");
        refused.put(Map.of("recipe", "pg-lease", "nodes", "2", "pg_replication", "async", "nemesis",
                "at 1s failover node:2 for 2s"), "t: nemesis: 'at 1s failover node:2 for 2s'");
        assertRefused(refused);
    }

    @Test
    void clientClocksMoveInClientAgentsOnly() throws Exception {
        TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("curator", "5.4.0", "clients", "3",
                "nemesis", "at 1s clock-jump holder by_ms=-60000 for 1s; at 3s clock-strobe clients for 1s")));
        SpecException x = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t",
                TestSpec.DEFAULTS, Map.of("nemesis", "at 1s clock-jump holder for 1s"))));
        assertEquals("t: nemesis: clock-jump holder: client clocks move in client agents: a lock of your own"
                + " (lock_class), curator VERSION, or client_agents true for an etcd recipe; reentrant-mutex's clients"
                + " run in the runner's JVM",
                x.getMessage());
        x = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("curator", "5.4.0", "clients", "20", "nemesis", "at 1s clock-jump holder for 1s"))));
        assertEquals("t: nemesis: clock-jump holder: the holder's clock moves alone only where each client has an"
                + " agent of its own: clients 2 to 16, got 20 (target clients moves every client's)", x.getMessage());
        // a waiter's clock, or process N's, moves alone as the holder's does: in an agent of its own
        TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("curator", "5.4.0", "clients", "3",
                "nemesis", "at 1s clock-jump waiter by_ms=60000 for 1s; at 3s clock-jump process:2 for 1s;"
                        + " at 5s clock-strobe next-waiter for 1s")));
        x = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("curator", "5.4.0", "clients", "20", "nemesis", "at 1s clock-jump waiter for 1s"))));
        assertEquals("t: nemesis: clock-jump waiter: the waiter's clock moves alone only where each client has an"
                + " agent of its own: clients 2 to 16, got 20 (target clients moves every client's)", x.getMessage());
        x = assertThrows(SpecException.class, () -> TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("curator", "5.4.0", "clients", "3", "nemesis", "at 1s clock-jump releaser for 1s"))));
        assertTrue(x.getMessage().contains("clients, holder, waiter, next-waiter or process:N (client agents)"),
                x.getMessage());
    }

    @Test
    void aMultiLockMayHaveMoreKeysThanClientsAndNeedsTwo() throws Exception {
        assertEquals(4, TestSpecs.validate("t", TestSpecs.with("t", TestSpec.DEFAULTS,
                Map.of("recipe", "multi", "clients", "2", "keys", "4"))).workload().keys());
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.validate("t",
                TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("recipe", "multi", "keys", "1"))));
        assertEquals("t: keys: a multi-lock needs at least 2 keys, got 1", e.getMessage());
        e = assertThrows(SpecException.class, () -> TestSpecs.validate("t",
                TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("clients", "2", "keys", "4"))));
        assertEquals("t: keys: expected 1 to clients (2), got 4", e.getMessage());
    }
}
