package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs with clients in agents: each Curator recipe on an older Curator, the same scenario in-process and in
 * agents, CURATOR-621 across the version that fixed it, and a version that does not exist.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class AgentRunTest extends ConsoleCapturing {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private JsonNode latest(String test) throws Exception {
        return JSON.readTree(dir.resolve(test).resolve("latest/results.json").toFile());
    }

    private static Set<String> kinds(JsonNode results) {
        Set<String> kinds = new TreeSet<>();
        for (JsonNode checker : results.get("checkers")) {
            for (JsonNode a : checker.get("anomalies")) {
                if (a.get("severity").asText().equals("violation")) {
                    kinds.add(a.get("kind").asText());
                }
            }
        }
        return kinds;
    }

    /** Every grant of a fault-free run names a node its own session owns, with a fencing token. */
    private void grantsOwnTheirNodes(String test) throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve(test).resolve("latest/history.jsonl"));
        int grants = 0;
        for (String l : lines) {
            JsonNode op = JSON.readTree(l);
            if (op.get("f").asText().equals("acquire") && op.get("type").asText().equals("ok")) {
                JsonNode v = op.get("value");
                assertEquals(v.get("session").asLong(), v.get("owner").asLong(), l);
                assertTrue(v.get("token").asLong() > 0, l);
                grants++;
            }
        }
        assertTrue(grants > 0, "no grant in " + test);
    }

    @Test
    void everyCuratorRecipeRunsValidOnAnOlderCurator() throws Exception {
        for (String recipe : List.of("mutex", "reentrant-mutex", "semaphore:2", "rw", "multi")) {
            int code = Main.run("run", "--recipe", recipe, "--curator", "5.4.0", "--nodes", "1", "--clients", "3",
                    "--keys", recipe.equals("multi") ? "2" : "1", "--time", "2s", "--seed", "3", "--store",
                    dir.toString());
            JsonNode r = latest("default");
            assertEquals(0, code, recipe + ": " + r.get("verdict") + " " + kinds(r));
            assertEquals("5.4.0", r.get("curator").asText(), recipe);
            grantsOwnTheirNodes("default");
        }
    }

    @Test
    void theSameScheduleGivesTheSameVerdictInProcessAndInAgentsOnTheOldestCurator() throws Exception {
        int inProcess = curator604("linked");
        Set<String> inProcessKinds = kinds(latest("curator-604"));
        int agent = curator604("5.0.0");
        JsonNode r = latest("curator-604");
        assertEquals(0, inProcess, "in-process (5.9.0): " + inProcessKinds);
        assertEquals(0, agent, "5.0.0 in an agent: " + kinds(r));
        // the verdict and the bug's signature; a lost add depends on where the overlap fell in the hold
        assertTrue(inProcessKinds.containsAll(Set.of("double-holder", "foreign-owner-grant")), inProcessKinds
                .toString());
        assertTrue(kinds(r).containsAll(Set.of("double-holder", "foreign-owner-grant")), kinds(r).toString());
        assertEquals("5.0.0", r.get("curator").asText());
    }

    /**
     * Runs workloads/bugs/curator-604.json on {@code curator} with {@code --check-expect}, once more when the first
     * run misses the verdict or the bug's whole signature: the bug needs the holder's release inside a window of about
     * 0.65 s after the fault (see the file), and on a loaded machine (the slow tier's four JVMs on two cores) a client
     * agent's first grant came late enough once in a suite run to miss it, and once the foreign-owner grant came
     * without the double holder it leads to. Each attempt is printed; the exit code is the last one's.
     */
    private int curator604(String curator) throws Exception {
        int code = -1;
        for (int attempt = 1; attempt <= 2 && (code != 0 || !kinds(latest("curator-604")).containsAll(Set.of(
                "double-holder", "foreign-owner-grant"))); attempt++) {
            code = Main.run("run", "--workload", "workloads/bugs/curator-604.json", "--curator", curator,
                    "--check-expect", "--store", dir.toString());
            System.out.println("curator-604 on " + curator + ", attempt " + attempt + ": exit " + code + ", "
                    + kinds(latest("curator-604")));
        }
        return code;
    }

    @Test
    void sequenceNumbersRestartWhenTheParentIsReapedAndTheCzxidDoesNot() throws Exception {
        int code = Main.run("run", "--workload", "workloads/bugs/sequence-restart.json", "--curator", "5.4.0",
                "--check-expect", "--store", dir.toString());
        JsonNode r = latest("sequence-restart");
        assertEquals(0, code, kinds(r).toString());
        JsonNode stats = null;
        for (JsonNode c : r.get("checkers")) {
            if (c.get("checker").asText().equals("token-order")) {
                stats = c.get("stats");
            }
        }
        assertTrue(stats != null && stats.get("sequence_restarts").asLong() > 0, String.valueOf(stats));
        assertEquals(0, stats.get("token_regressions").asLong());
    }

    @Test
    void aPausedClientsOwnAgentStopsWholeAndFencingStillRejectsItsStaleWrite() throws Exception {
        int code = Main.run("run", "--workload", "workloads/scenario-4-gc-pause-fenced.json", "--curator", "5.9.0",
                "--store", dir.toString());
        JsonNode r = latest("scenario-4-gc-pause-fenced");
        assertEquals(1, code, kinds(r).toString());
        assertTrue(kinds(r).contains("double-holder"), kinds(r).toString());
        assertEquals(r.get("agents").get("count").asInt(), 3, "an agent per client: " + r.get("agents"));
        boolean stopped = false;
        for (String l : Files.readAllLines(dir.resolve("scenario-4-gc-pause-fenced/latest/history.jsonl"))) {
            JsonNode op = JSON.readTree(l);
            if (op.get("value") != null && op.get("value").path("fault").asText().equals("pause-client")
                    && op.get("value").has("agent_stopped")) {
                stopped = true;
            }
        }
        assertTrue(stopped, "the pause stopped the client's agent");
        for (JsonNode c : r.get("checkers")) {
            if (c.get("checker").asText().equals("fencing")) {
                assertEquals("valid", c.get("verdict").asText(), c.toString());
                assertTrue(c.get("stats").get("rejected_stale").asLong() >= 1, c.toString());
            }
        }
    }

    @Test
    void semaphoreLeasesSurviveConnectionFlappingOnTheOldestCurator() throws Exception {
        int code = Main.run("run", "--workload", "workloads/bugs/semaphore-flapping.json", "--curator", "5.0.0",
                "--time", "8s", "--check-expect", "--store", dir.toString());
        JsonNode r = latest("semaphore-flapping");
        assertEquals(0, code, kinds(r).toString());
        assertTrue(r.get("faults").get("started").asInt() >= 2, r.get("faults").toString());
        for (JsonNode c : r.get("checkers")) {
            if (c.get("checker").asText().equals("mutual-exclusion")) {
                assertTrue(c.get("stats").get("certain_holds").asLong() > 0, c.toString());
                assertTrue(c.get("stats").get("max_concurrent_holders").asInt() <= 2, c.toString());
            }
        }
    }

    @Test
    void anAcquireOutlivesItsTimeoutDuringAPartition() throws Exception {
        int code = Main.run("run", "--workload", "workloads/bugs/acquire-timeout-overrun.json", "--store",
                dir.toString());
        JsonNode r = latest("acquire-timeout-overrun");
        assertEquals(1, code, kinds(r).toString());
        assertEquals(Set.of("acquire-overrun"), kinds(r), "a liveness finding, no safety one");
    }

    @Test
    void theMatrixShowsTheCurator621FixAt550() throws Exception {
        Path out = dir.resolve("m");
        int code = Main.run("matrix", "--workload", "workloads/bugs/curator-621.json", "--curator", "5.4.0,5.5.0",
                "--store", dir.toString(), "--out", out.toString());
        JsonNode m = JSON.readTree(out.resolve("matrix.json").toFile());
        assertEquals(0, code, m.toString());
        JsonNode before = m.get("versions").get(0);
        JsonNode after = m.get("versions").get(1);
        assertEquals("5.4.0", before.get("resolved").asText());
        assertEquals("invalid", before.get("outcome").asText(), before.toString());
        assertTrue(before.get("violation_kinds").toString().contains("rw-conflict"), before.toString());
        assertTrue(before.get("median_first_violation_s").asDouble() > 0, before.toString());
        assertEquals("5.5.0", after.get("resolved").asText());
        assertEquals("valid", after.get("outcome").asText(), after.toString());
        assertTrue(after.get("as_expected").asBoolean() && before.get("as_expected").asBoolean());
        assertTrue(Files.readString(out.resolve("matrix.html")).contains("<td>5.5.0</td>"));
    }

    @Test
    void aMatrixAgainstItsExpectationExitsOne() throws Exception {
        // the linked 5.9.0 has the fix: a file expecting the bug there is not met
        Path wrong = dir.resolve("wrong.json");
        Files.writeString(wrong, Files.readString(Path.of("workloads/bugs/curator-621.json"))
                .replace("\">=5.5.0\": \"valid\"", "\">=5.5.0\": \"invalid\""));
        int code = Main.run("matrix", "--workload", wrong.toString(), "--curator", "linked", "--store",
                dir.toString(), "--out", dir.resolve("w").toString());
        assertEquals(1, code);
        assertTrue(out.toString().contains("NO"), out.toString());
    }

    @Test
    void aVersionThatDoesNotExistIsOneLineAndExitTwo() throws Exception {
        int code = Main.run("run", "--curator", "0.0.1", "--time", "1s", "--store", dir.toString());
        assertEquals(2, code);
        assertEquals(1, err().strip().lines().count(), err());
        assertTrue(err().startsWith("lockchaos: curator: version 0.0.1 cannot be resolved from "), err());
        assertFalse(Files.exists(dir.resolve("default")), "no run was started");
        // a library's release is resolved at the same point: the spec only said it was a version
        err.reset();
        code = Main.run("run", "--workload", "workloads/shedlock-jdbc-kill.json", "--library-version", "0.0.1",
                "--store", dir.toString());
        assertEquals(2, code);
        assertEquals(1, err().strip().lines().count(), err());
        assertTrue(err().startsWith("lockchaos: library_version: shedlock-jdbc: version 0.0.1 cannot be resolved"
                + " from "), err());
        assertFalse(Files.exists(dir.resolve("shedlock-jdbc-kill")), "no run was started");
        code = Main.run("run", "--curator", "5.4.0", "--recipe", "naive-exclusive", "--store", dir.toString());
        assertEquals(2, code);
        assertTrue(err().contains("--curator: client agents run Curator's recipes; naive-exclusive is not one"),
                err());
    }
}
