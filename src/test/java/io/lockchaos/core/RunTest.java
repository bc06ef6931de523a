package io.lockchaos.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class RunTest {
    @TempDir
    Path dir;

    @Test
    void aShortRunIsStoredAndChecked() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run("run", "--nodes", "1", "--clients", "3", "--time", "2s", "--seed", "5",
                    "--store", dir.toString());
        } finally {
            System.setOut(old);
        }
        assertEquals(0, code);
        String printed = console.toString(StandardCharsets.UTF_8);
        // every phase is named with its time, and the run ends by saying where its outputs are
        for (String phase : new String[] {"starting 1 local ZooKeeper server(s) ... ", "final heal ... ",
            "final probes, reads and inspection ... ", "checking the history ... ", "writing results and reports ... "}) {
            assertTrue(printed.matches("(?s).*" + java.util.regex.Pattern.quote(phase) + "[0-9]+\\.[0-9] s\n.*"),
                    phase + " in:\n" + printed);
        }
        Path latest = dir.resolve("default/latest");
        assertTrue(Files.isSymbolicLink(latest));
        Path run = dir.resolve("default").resolve(Files.readSymbolicLink(latest));
        for (String f : new String[] {"history.jsonl", "test.json", "results.json", "servers/node-1/server.log"}) {
            assertTrue(Files.exists(run.resolve(f)), f);
        }
        var test = new ObjectMapper().readTree(run.resolve("test.json").toFile());
        assertEquals(5, test.get("seed").asLong());
        assertEquals("3.9.5", test.get("versions").get("zookeeper").asText());
        var results = new ObjectMapper().readTree(run.resolve("results.json").toFile());
        assertEquals("valid", results.get("verdict").asText());
        String history = Files.readString(run.resolve("history.jsonl"));
        assertTrue(history.contains("\"f\":\"heal\"") && history.contains("\"f\":\"inspect\""), "final phase");
        assertTrue(results.get("throughput").get("acquires_per_s").asDouble() > 0, results.get("throughput").toString());
        var checkers = results.get("checkers");
        assertTrue(checkers.get(2).get("stats").get("accepted").asLong() > 0, "fenced writes: " + checkers.get(2));
        assertTrue(checkers.get(3).get("stats").get("acknowledged_adds").asLong() > 0, "adds: " + checkers.get(3));
        assertTrue(printed.contains(Files.readString(run.resolve("summary.txt"))), "summary.txt is what was printed");
        for (String f : new String[] {"results: " + run.resolve("results.json"), "summary: " + run.resolve("summary.txt"),
            "report: " + run.resolve("timeline.html")}) {
            assertTrue(printed.contains(f), f + " in:\n" + printed);
        }
    }

    @Test
    void theNaiveReadWriteLockIsCaught() {
        int code = Main.run("run", "--workload", "workloads/naive-rw.json", "--nodes", "1", "--clients", "4",
                "--time", "3s", "--store", dir.toString());
        assertEquals(1, code, "readers pass a holding writer");
    }

    @Test
    void overheadRunsAlternateRecordedAndDiscardedRounds() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, Main.run("run", "--overhead", "--overhead-pairs", "2", "--nodes", "1", "--clients", "2",
                    "--time", "1s", "--store", dir.toString()));
        } finally {
            System.setOut(old);
        }
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("pair 0 (warm-up, not judged): recorded ") && o.contains("pair 2: recorded "), o);
        assertTrue(o.matches("(?s).*recorder overhead: median -?[0-9.]+% throughput loss over 2 pairs.*"), o);
    }

    @Test
    void retiredReentrantHoldersUnderLeaderKillsAreNoDoubleHoldersAndTheirSessionsCloseOnRecord() throws Exception {
        // Nested re-acquires that end info retire their process while it holds: the history must say the session
        // was closed, and the checkers must not count the retired holder as holding on for ever.
        int code = Main.run("run", "--recipe", "reentrant-mutex", "--reentry-depth", "3", "--nodes", "3",
                "--clients", "5", "--time", "10s", "--seed", "11",
                "--nemesis", "at 1s kill all for 3s; at 6s kill leader for 2s", "--store", dir.toString());
        Path run = dir.resolve("default/latest");
        var h = io.lockchaos.history.JsonlHistoryReader.read(run.resolve("history.jsonl"));
        var results = new ObjectMapper().readTree(run.resolve("results.json").toFile());
        var me = results.get("checkers").get(0);
        assertEquals(0, me.get("stats").get("violations").asLong(), me.toString());
        // the kills may also make Curator take a protected node that an earlier session of its own created, still
        // owned by that session (CURATOR-604's foreign-owner grant: 3 of 7 runs of this seed here, 2026-12-07): a
        // finding of its own, which leaves this test's subject, double holders and closed sessions, as it is
        var kinds = new java.util.TreeSet<String>();
        for (var c : results.get("checkers")) {
            c.get("anomalies").forEach(a -> kinds.add(a.get("kind").asText()));
        }
        boolean only604 = code == 1 && kinds.equals(new java.util.TreeSet<>(java.util.Set.of("foreign-owner-grant")));
        assertTrue(code == 0 || code == 2 || only604, "exit " + code + ": " + results.get("verdict") + " " + kinds
                + " history " + run.toRealPath());
        var retired = new java.util.HashSet<Integer>();
        var closed = new java.util.HashSet<Integer>();
        for (var op : h.ops()) {
            if (!op.isNemesis() && op.type() == io.lockchaos.history.OpType.INFO) {
                retired.add(op.process());
            }
            if (op.f() == io.lockchaos.history.Fn.STATE && "CLOSED".equals(op.stringField("state"))) {
                closed.add(op.process());
                assertTrue(op.longField("session", 0) != 0, op.toString());
            }
        }
        assertFalse(retired.isEmpty(), "the outage retires processes");
        assertEquals(retired, closed, "every retired process closes its session on record");
    }

    @Test
    void reentryIsGrantedByInterProcessMutexAndRefusedBySemaphoreMutex() throws Exception {
        assertEquals(0, Main.run("run", "--recipe", "reentrant-mutex", "--reentry-depth", "3", "--nodes", "1",
                "--clients", "2", "--time", "2s", "--store", dir.resolve("a").toString()));
        assertEquals(0, Main.run("run", "--recipe", "mutex", "--reentry-depth", "2", "--nodes", "1",
                "--clients", "2", "--time", "2s", "--store", dir.resolve("b").toString()));
        var a = new ObjectMapper().readTree(dir.resolve("a/default/latest/results.json").toFile());
        var b = new ObjectMapper().readTree(dir.resolve("b/default/latest/results.json").toFile());
        assertTrue(a.get("checkers").get(1).get("stats").get("reacquires_granted").asLong() > 0, a.toString());
        assertTrue(b.get("checkers").get(1).get("stats").get("reacquires_failed").asLong() > 0, b.toString());
    }

    @Test
    void runsAgainstAnExistingEnsemble() throws Exception {
        try (io.lockchaos.zookeeper.LocalEnsemble zk = io.lockchaos.zookeeper.LocalEnsemble.builder(dir.resolve("ext"))
                .size(1).build()) {
            zk.start();
            zk.awaitHealthy(java.time.Duration.ofSeconds(60));
            assertEquals(0, Main.run("run", "--connect", zk.connectString(), "--clients", "2", "--time", "1s",
                    "--store", dir.resolve("runs").toString()));
            assertTrue(zk.leader().isEmpty() && io.lockchaos.zookeeper.FourLetterWords.mode(zk.nodes().get(0), 1000)
                    .isPresent(), "the user's server is still running");
            assertTrue(!Files.exists(dir.resolve("runs/default/latest/servers/node-1")), "no server was started");
        }
        assertEquals(2, Main.run("run", "--connect", "nohost", "--store", dir.toString()));
    }

    @Test
    void theHerdWakesEveryWaiterAndTheQueueOnlyOne() throws Exception {
        double[] perGrant = new double[2];
        String[] recipes = {"naive-herd", "naive-queue"};
        for (int i = 0; i < 2; i++) {
            Path store = dir.resolve(recipes[i]);
            assertEquals(0, Main.run("run", "--recipe", recipes[i], "--nodes", "1", "--clients", "6", "--time", "2s",
                    "--store", store.toString()));
            var r = new ObjectMapper().readTree(store.resolve("default/latest/results.json").toFile());
            perGrant[i] = r.get("throughput").get("watch_notifications_per_grant").asDouble();
        }
        assertTrue(perGrant[0] > 2, "herd: " + perGrant[0] + " notifications per grant");
        // a predecessor that times out wakes its successor once more, so the queue may exceed 1 a little
        assertTrue(perGrant[1] < 1.5, "queue: " + perGrant[1] + " notifications per grant");
    }

    @Test
    void generatorKeysShapeTheRun() throws Exception {
        Path w = dir.resolve("mixed.json");
        Files.writeString(w, "{\"name\": \"mixed\", \"recipe\": \"rw\", \"nodes\": 1, \"clients\": 4,"
                + " \"time_s\": 2, \"warmup_s\": 1, \"try_acquire_pct\": 50, \"read_pct\": 25, \"rate\": 20,"
                + " \"hold_ms\": 5, \"hold_max_ms\": 30, \"seed\": 11}");
        assertEquals(0, Main.run("run", "--workload", w.toString(), "--store", dir.toString()));
        var h = io.lockchaos.history.JsonlHistoryReader.read(dir.resolve("mixed/latest/history.jsonl"));
        var ops = h.ops();
        var phases = ops.stream().filter(o -> o.f() == io.lockchaos.history.Fn.PHASE
                && o.type() == io.lockchaos.history.OpType.OK).map(o -> o.stringField("phase")).toList();
        assertEquals(java.util.List.of("warmup", "main"), phases);
        long mainAt = ops.stream().filter(o -> o.f() == io.lockchaos.history.Fn.PHASE && "main".equals(
                o.stringField("phase"))).findFirst().orElseThrow().time();
        assertTrue(mainAt >= 900_000_000L, "main starts after the 1 s warm-up, at " + mainAt);
        var acquires = ops.stream().filter(o -> o.f() == io.lockchaos.history.Fn.ACQUIRE
                && o.type() == io.lockchaos.history.OpType.INVOKE && o.process() < 1_000_000).toList();
        long tries = acquires.stream().filter(o -> o.longField("timeout_ms", -1) == 0).count();
        assertTrue(tries > 0 && tries < acquires.size(), tries + " tries of " + acquires.size());
        long readers = acquires.stream().filter(o -> "read".equals(o.stringField("mode"))).map(o -> o.process() % 4)
                .distinct().count();
        assertEquals(1, readers, "read_pct 25 of 4 workers is one reader");
        // 4 workers at about 20 cycles/s for 3 s cannot exceed a few hundred acquires
        assertTrue(acquires.size() < 4 * 20 * 3 * 2, "rate limits the cycles: " + acquires.size());
        assertTrue(ops.stream().anyMatch(o -> o.time() > mainAt && o.f() == io.lockchaos.history.Fn.ACQUIRE),
                "workers keep running in the main phase");
    }

    @Test
    void everyFaultIsANemesisOpInTheStoredHistory() throws Exception {
        int code = Main.run("run", "--nodes", "3", "--clients", "4", "--time", "9s", "--seed", "4",
                "--client-mode", "stop-on-suspended", "--nemesis", "at 1s isolate random for 2s;"
                + " at 3500ms kill follower for 1500ms; at 5500ms expire waiter; at 6s latency clients latency_ms=50"
                + " for 1s; at 7500ms pause-client holder for 500ms", "--store", dir.toString());
        Path run = dir.resolve("default/latest");
        var h = io.lockchaos.history.JsonlHistoryReader.read(run.resolve("history.jsonl"));
        var nemesis = h.ops().stream().filter(o -> o.isNemesis() && o.type() != io.lockchaos.history.OpType.INVOKE)
                .toList();
        java.util.function.Function<String, java.util.List<io.lockchaos.history.Op>> fault = name -> nemesis.stream()
                .filter(o -> name.equals(o.stringField("fault"))).toList();
        var iso = fault.apply("isolate-client");
        assertEquals(2, iso.size(), "start and stop: " + iso);
        assertEquals(io.lockchaos.history.Fn.PARTITION, iso.get(0).f());
        assertEquals(io.lockchaos.history.Fn.STOP, iso.get(1).f());
        assertTrue(iso.get(0).longField("session", 0) != 0, "names the victim's session: " + iso.get(0));
        assertTrue(iso.get(1).time() - iso.get(0).time() >= 1_900_000_000L, "lasted 2 s");
        var kill = fault.apply("kill");
        assertEquals(java.util.List.of(io.lockchaos.history.Fn.KILL, io.lockchaos.history.Fn.RESTART),
                kill.stream().map(io.lockchaos.history.Op::f).toList());
        var expire = fault.apply("expire");
        assertEquals(1, expire.size());
        assertEquals(io.lockchaos.history.OpType.OK, expire.get(0).type(), expire.get(0).toString());
        assertTrue(expire.get(0).longField("session", 0) != 0);
        // Joining the waiter's session to end it takes a moment; when the waiter is granted the lock in it (seen with
        // both cores busy) the server hands the lock on as the session ends, a double holder the checker must find;
        // or (seen once in CI) a later waiter is granted first while the expiry is under way, and the expired
        // waiter's grant that follows is a FIFO overtake of it
        java.util.List<String> summary = Files.readString(run.resolve("summary.txt")).lines().toList();
        String doubleHolder = summary.stream().filter(l -> l.contains("double-holder")).findFirst().orElse("");
        long expired = expire.get(0).longField("process", -1);
        String overtaken = summary.stream().filter(l -> l.contains("fifo-overtake")
                && l.contains("process " + expired + " queued")).findFirst().orElse("");
        assertTrue(code == 0 && doubleHolder.isEmpty() && overtaken.isEmpty() || code == 1 && (doubleHolder.matches(
                ".*processes (" + expired + " and \\d+|\\d+ and " + expired + ") both held.*")
                || !overtaken.isEmpty()),
                "valid, or the expired waiter " + expired + " is one of a double holder or overtaken: exit " + code
                + ", " + doubleHolder + overtaken);
        assertEquals(2, fault.apply("latency").size());
        var pause = fault.apply("pause-client");
        assertEquals(java.util.List.of(io.lockchaos.history.Fn.PAUSE, io.lockchaos.history.Fn.RESUME),
                pause.stream().map(io.lockchaos.history.Op::f).toList(), pause.toString());
        var heal = nemesis.stream().filter(o -> o.f() == io.lockchaos.history.Fn.HEAL).toList();
        var quiesce = nemesis.stream().filter(o -> o.f() == io.lockchaos.history.Fn.QUIESCE).toList();
        assertEquals(1, heal.size());
        assertEquals(1, quiesce.size());
        assertTrue(quiesce.get(0).time() > heal.get(0).time());
        var test = new ObjectMapper().readTree(run.resolve("test.json").toFile());
        assertEquals(5, test.get("schedule").size(), test.get("schedule").toString());
        for (String f : new String[] {"timeline.html", "junit.xml", "summary.txt", "latency.png"}) {
            assertTrue(Files.exists(run.resolve(f)), f);
        }
    }

    @Test
    void networkFaultsGoThroughAToxiproxyTheUserRunsAndItsProxiesAreRemovedAfter() throws Exception {
        try (io.lockchaos.proxy.ProxyServer toxiproxy = io.lockchaos.proxy.ProxyServer.start(0)) {
            assertEquals(0, Main.run("run", "--nodes", "1", "--clients", "2", "--time", "3s", "--seed", "2",
                    "--proxy", toxiproxy.url(), "--nemesis", "at 1s isolate random for 1s", "--store", dir.toString()));
            var h = io.lockchaos.history.JsonlHistoryReader.read(dir.resolve("default/latest/history.jsonl"));
            assertTrue(h.ops().stream().anyMatch(o -> o.f() == io.lockchaos.history.Fn.PARTITION
                    && o.type() == io.lockchaos.history.OpType.OK), "the isolation was applied");
            var client = new eu.rekawek.toxiproxy.ToxiproxyClient(toxiproxy.host(), toxiproxy.port());
            assertTrue(client.getProxies().isEmpty(), "the run's proxies are deleted: " + client.getProxies());
        }
        assertEquals(2, Main.run("run", "--proxy", "ftp://nowhere", "--store", dir.toString()));
    }

    @Test
    void everyWorkloadFileLoads() throws Exception {
        try (Stream<Path> files = Files.walk(Path.of("workloads"))) {
            for (Path f : files.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".json")).toList()) {
                TestSpec s = TestSpecs.load(f);
                assertEquals(f.getFileName().toString().replace(".json", ""), s.name());
            }
        }
    }

    @Test
    void badWorkloadsAreOneLineErrorsNamingTheKey() throws Exception {
        Path w = dir.resolve("w.json");
        Files.writeString(w, "{\"recipe\": \"mutex\", \"clinets\": 4}");
        SpecException e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertTrue(e.getMessage().startsWith(w + ": clinets: unknown key"), e.getMessage());
        Files.writeString(w, "{\"session_timeout_ms\": 100000}");
        e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertEquals(w + ": session_timeout_ms: the server allows 400 to 4000 ms with tick_ms 200, got 100000",
                e.getMessage());
        Files.writeString(w, "{\"nemesis\": [\"at 1s partition ring for 1s\"]}");
        e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertTrue(e.getMessage().startsWith(w + ": nemesis: a ring partition needs 5 nodes"), e.getMessage());
        Files.writeString(w, "{\"try_acquire_pct\": 101}");
        e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertEquals(w + ": try_acquire_pct: expected 0 to 100, got 101", e.getMessage());
        Files.writeString(w, "{\"hold_ms\": 50, \"hold_max_ms\": 10}");
        e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertEquals(w + ": hold_max_ms: must be 0 or at least hold_ms (50), got 10", e.getMessage());
        Files.writeString(w, "{\"nodes\": \"three\"}");
        e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertEquals(w + ": nodes: expected a whole number, got 'three'", e.getMessage());
        Files.writeString(w, "{\"nodes\": 3,");
        e = assertThrows(SpecException.class, () -> TestSpecs.load(w));
        assertTrue(e.getMessage().startsWith(w + ":1: malformed JSON"), e.getMessage());

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, Main.run("run", "--nodes", "4", "--store", dir.toString()));
        } finally {
            System.setErr(old);
        }
        assertEquals("lockchaos: --nodes: expected 1, 3 or 5, got 4", err.toString(StandardCharsets.UTF_8)
                .strip());
        if (!io.lockchaos.cluster.Docker.available()) {
            err.reset();
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                assertEquals(2, Main.run("run", "--cluster", "container", "--store", dir.resolve("c").toString()));
            } finally {
                System.setErr(old);
            }
            assertEquals("lockchaos: cluster: container needs Docker, and Docker is not available on this machine"
                    + " (use the default cluster: local)", err.toString(StandardCharsets.UTF_8).strip());
            assertTrue(!Files.exists(dir.resolve("c")), "nothing is stored for a run that cannot start");
        }
    }
}
