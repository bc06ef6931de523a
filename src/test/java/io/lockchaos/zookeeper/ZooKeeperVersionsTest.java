package io.lockchaos.zookeeper;

import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The servers run another ZooKeeper release when a workload names one: docs/zookeeper.md's matrix command, run exactly
 * as the page writes it (the block whose doc-test comment names this class) from a folder laid out as a clone's root,
 * runs the leader's kill on each release, and every row must be valid with its servers saying they are that release.
 */
@Timeout(value = 400, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class ZooKeeperVersionsTest {
    @TempDir
    Path dir;

    @Test
    void theDocumentedMatrixRunsEachReleaseThroughTheLeadersKill() throws Exception {
        String command = io.lockchaos.docs.MarkedCommand.on("docs/zookeeper.md", "ZooKeeperVersionsTest");
        assertEquals("bin/lockchaos matrix --workload workloads/zk-leader-kill.json --zookeeper"
                + " 3.6.4,3.7.2,3.8.4,linked", command);
        StringBuilder out = new StringBuilder();
        com.fasterxml.jackson.databind.JsonNode rows = matrixRows(command, "zk-leader-kill", 360, out);
        Map<String, String> resolved = new java.util.LinkedHashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode r : rows) {
            assertEquals("valid", r.path("outcome").asText(), r.toString());
            assertTrue(r.path("as_expected").asBoolean(), r.toString());
            resolved.put(r.path("version").asText(), r.path("resolved").asText());
            String runDir = r.path("runs_stored").get(0).asText();
            String test = Files.readString(dir.resolve(runDir).resolve("test.json"));
            String asked = r.path("version").asText().equals("linked") ? "linked" : r.path("version").asText();
            assertTrue(test.contains("\"zookeeper\" : \"" + asked + "\""), test);
        }
        // resolved is what every server of the run logged as its version
        assertEquals(Map.of("3.6.4", "3.6.4", "3.7.2", "3.7.2", "3.8.4", "3.8.4", "linked", "3.9.5"), resolved,
                out.toString());
        assertFalse(out.toString().contains("ClientCnxn"), "the clients' logging goes to the matrix's client.log: "
                + out);
    }

    /**
     * ZOOKEEPER-2901 in the bug zoo: on myids from 128, 3.5.3-beta keeps a cut-off holder's lock node after the
     * servers expire its session (an orphan without an owner, and a leaked lock); 3.5.4-beta deletes it.
     */
    @Test
    void zookeeper2901LeavesALockNodeOn353AndNotOn354() throws Exception {
        String command = io.lockchaos.docs.MarkedCommand.on("docs/zookeeper.md",
                "ZooKeeperVersionsTest.zookeeper2901");
        assertEquals("bin/lockchaos matrix --workload workloads/bugs/zookeeper-2901.json --zookeeper"
                + " 3.5.3-beta,3.5.4-beta", command);
        StringBuilder out = new StringBuilder();
        com.fasterxml.jackson.databind.JsonNode rows = matrixRows(command, "zookeeper-2901", 300, out);
        Map<String, String> outcomes = outcomes(rows, (r, run) -> {
            String results = Files.readString(run.resolve("results.json"));
            // the sessions were negative: the servers' myids were 128 and up
            assertTrue(Files.readString(run.resolve("history.jsonl")).contains("\"session\":-"), run.toString());
            assertEquals(r.path("version").asText().equals("3.5.3-beta"), results.contains("\"orphan-node\""),
                    r + ": " + results);
        });
        assertEquals(Map.of("3.5.3-beta", "invalid", "3.5.4-beta", "valid"), outcomes, out.toString());
    }

    /**
     * ZOOKEEPER-4925 in the bug zoo: after the upstream test's kills, 3.9.3's server 3 keeps lock nodes the others
     * deleted (a block of transactions it never got), which the inspection of every server calls a divergence;
     * 3.9.4 has the same kills and no divergence.
     */
    @Test
    void zookeeper4925DivergesOn393AndNotOn394() throws Exception {
        String command = io.lockchaos.docs.MarkedCommand.on("docs/zookeeper.md",
                "ZooKeeperVersionsTest.zookeeper4925");
        assertEquals("bin/lockchaos matrix --workload workloads/bugs/zookeeper-4925.json --zookeeper 3.9.3,3.9.4",
                command);
        StringBuilder out = new StringBuilder();
        com.fasterxml.jackson.databind.JsonNode rows = matrixRows(command, "zookeeper-4925", 300, out);
        Map<String, String> outcomes = outcomes(rows, (r, run) -> {
            String results = Files.readString(run.resolve("results.json"));
            assertEquals(r.path("version").asText().equals("3.9.3"), results.contains("\"servers-diverged\""),
                    r + ": " + results);
            assertFalse(results.contains("\"orphan-node\""), results);
        });
        assertEquals(Map.of("3.9.3", "invalid", "3.9.4", "valid"), outcomes, out.toString());
        // txnlog: the latest run (3.9.4's) has no hole, the 3.9.3 run's stale server lacks a block
        String txnlog = io.lockchaos.docs.MarkedCommand.on("docs/zookeeper.md", "ZooKeeperVersionsTest.txnlog");
        assertEquals("bin/lockchaos txnlog histories/zookeeper-4925/latest", txnlog);
        io.lockchaos.docs.MarkedCommand.Result latest = io.lockchaos.docs.MarkedCommand.run(txnlog, dir,
                List.of("bin", "target", "workloads"), 60);
        assertEquals(0, latest.exit(), latest.output());
        assertTrue(latest.output().contains("no holes"), latest.output());
        for (com.fasterxml.jackson.databind.JsonNode r : rows) {
            if (r.path("version").asText().equals("3.9.3")) {
                String run = r.path("runs_stored").get(0).asText();
                io.lockchaos.docs.MarkedCommand.Result holed = io.lockchaos.docs.MarkedCommand.run(
                        "bin/lockchaos txnlog " + run, dir, List.of("bin", "target", "workloads"), 60);
                assertEquals(1, holed.exit(), holed.output());
                assertTrue(holed.output().matches("(?s).*hole: server\\(s\\) \\[3] lack [0-9]+ transaction\\(s\\) that"
                        + " \\[1, 2, 4, 5] logged.*delete=.*"), holed.output());
            }
        }
    }

    /** What a test checks of one version's row of a matrix and of that row's first stored run. */
    private interface RowCheck {
        void check(com.fasterxml.jackson.databind.JsonNode row, Path run) throws java.io.IOException;
    }

    /** Each row's outcome by version, every row as the workload expected and checked by {@code check}. */
    private Map<String, String> outcomes(com.fasterxml.jackson.databind.JsonNode rows, RowCheck check)
            throws java.io.IOException {
        Map<String, String> outcomes = new java.util.LinkedHashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode r : rows) {
            assertTrue(r.path("as_expected").asBoolean(), r.toString());
            outcomes.put(r.path("version").asText(), r.path("outcome").asText());
            check.check(r, dir.resolve(r.path("runs_stored").get(0).asText()));
        }
        return outcomes;
    }

    /**
     * Runs a documented matrix command from a folder laid out as a clone's root and returns the rows of its
     * matrix.json ({@code out} gets what it printed); it must exit 0.
     */
    private com.fasterxml.jackson.databind.JsonNode matrixRows(String command, String workload, int seconds,
                                                               StringBuilder out) throws Exception {
        io.lockchaos.docs.MarkedCommand.Result ran = io.lockchaos.docs.MarkedCommand.run(command, dir,
                List.of("bin", "target", "workloads"), seconds);
        if (ran.exit() != 0 && ran.output().contains("foreign-owner-grant")) {
            // CURATOR-604, a Curator bug a leader's kill can expose when the machine is loaded (the slow tier's four
            // JVMs on two cores did, on the linked release): a true finding, not this test's subject; once more
            System.out.println("matrix: CURATOR-604 showed under load; once more:\n" + ran.output());
            ran = io.lockchaos.docs.MarkedCommand.run(command, dir, List.of("bin", "target", "workloads"), seconds);
        }
        out.append(ran.output());
        assertEquals(0, ran.exit(), ran.output());
        Path matrix;
        try (Stream<Path> s = Files.list(dir.resolve("histories/" + workload))) {
            matrix = s.filter(d -> d.getFileName().toString().startsWith("matrix-"))
                    .max(java.util.Comparator.comparing(d -> d.getFileName().toString())).orElseThrow(); // the last
        }
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(matrix.resolve("matrix.json").toFile())
                .path("versions");
    }

    @Test
    void aReleaseIsRefusedWherePeerProxiesOrContainersWouldBeNeeded() {
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> TestSpecs.validate(
                "w.json", TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("zookeeper", "3.6.4", "nemesis",
                        "at 1s partition halves for 1s"))));
        assertEquals("w.json: zookeeper: 3.6.4 runs ZooKeeper's own QuorumPeerMain, whose election connections"
                + " bypass peer proxies: cut servers apart with cluster netns (iptables)", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> TestSpecs.validate("w.json",
                TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("zookeeper", "3.6.4", "cluster", "container"))));
        assertTrue(e.getMessage().startsWith("w.json: zookeeper: containers run the linked ZooKeeper"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> TestSpecs.validate("w.json",
                TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("zookeeper", "3.6.4", "recipe", "redis-single",
                        "nodes", "1"))));
        assertTrue(e.getMessage().startsWith("w.json: zookeeper: a ZooKeeper release is for ZooKeeper recipes"),
                e.getMessage());
    }
}
