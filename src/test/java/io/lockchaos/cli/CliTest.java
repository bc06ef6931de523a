package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliTest extends ConsoleCapturing {
    @TempDir
    Path dir;

    @Test
    void checkWritesResultsBesideTheHistoryAndExitsByVerdict() throws Exception {
        Path h = dir.resolve("history.jsonl");
        Files.copy(Path.of("checker/overlap-1ns.jsonl"), h);
        assertEquals(1, Main.run("check", h.toString()));
        JsonNode r = new ObjectMapper().readTree(dir.resolve("history.check/results.json").toFile());
        assertEquals("invalid", r.get("verdict").asText());
        assertEquals("double-holder", r.get("checkers").get(0).get("anomalies").get(0).get("kind").asText());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("INVALID"));

        Files.copy(Path.of("checker/clean-mutex.jsonl"), dir.resolve("clean.jsonl"));
        assertEquals(0, Main.run("check", dir.resolve("clean.jsonl").toString()));
        assertTrue(Files.exists(dir.resolve("clean.check/results.json")));
        try (var files = Files.list(dir)) {
            assertEquals(java.util.Set.of("history.jsonl", "history.check", "clean.jsonl", "clean.check"),
                    files.map(x -> x.getFileName().toString()).collect(java.util.stream.Collectors.toSet()),
                    "check writes into one folder per history and nowhere else");
        }

        Files.copy(Path.of("checker/no-final-read.jsonl"), dir.resolve("unread.jsonl"));
        assertEquals(2, Main.run("check", dir.resolve("unread.jsonl").toString()));
    }

    @Test
    void badInputIsOneLineAndExitCodeTwo() {
        assertEquals(2, Main.run("check", "checker/err-two-invokes.jsonl"));
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().startsWith("lockchaos: checker/err-two-invokes.jsonl:2: type: process 0 invokes"), err());
        assertTrue(!err().contains("\tat "), "no stack trace");
    }

    /** A device or FIFO never ends: check refused it in one line rather than reading until killed (#42). */
    @Test
    void aDeviceIsRefusedInOneLineNotRead() {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            assertEquals(2, Main.run("check", "/dev/zero"));
            assertEquals("lockchaos: /dev/zero: not a regular file (a FIFO, device or socket is never read as a"
                    + " history)", err().strip());
            err.reset();
            assertEquals(2, Main.run("check", "/dev/zero", "checker/clean-mutex.jsonl"));
            assertEquals("lockchaos: /dev/zero: not a regular file or folder (a FIFO, device or socket is never"
                    + " read)", err().strip());
        });
    }

    @Test
    void unknownRecipeAndMissingFileAreOneLine() {
        assertEquals(2, Main.run("check", "checker/clean-mutex.jsonl", "--recipe", "spinlock"));
        assertTrue(err().contains("--recipe: unknown recipe 'spinlock'"), err());
        err.reset();
        assertEquals(2, Main.run("check", dir.resolve("nope.jsonl").toString()));
        assertEquals("lockchaos: " + dir.resolve("nope.jsonl") + ": no such file", err().strip());
        err.reset();
        assertEquals(2, Main.run("check", "checker/clean-mutex.jsonl", "--format", "xml"));
        assertTrue(err().contains("unknown format 'xml'"), err());
    }

    @Test
    void genWritesAHistoryThatChecksValidAndTheSeedIsPrinted() {
        Path f = dir.resolve("g.jsonl");
        assertEquals(0, Main.run("gen", "--ops", "500", "--processes", "4", "--seed", "3", "--out", f.toString()));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("seed 3"));
        assertEquals(0, Main.run("check", f.toString(), "--recipe", "reentrant-mutex"));
        // without --recipe, check reads the recipe gen recorded beside the file (g.test.json)
        assertEquals(0, Main.run("check", f.toString()));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("recipe reentrant-mutex"), out.toString());
        Path e = dir.resolve("g.edn");
        assertEquals(0, Main.run("gen", "--ops", "500", "--bug", "over-grant", "--seed", "3", "--out", e.toString()));
        assertEquals(1, Main.run("check", e.toString(), "--recipe", "reentrant-mutex"));
    }

    @Test
    void modelRecipeChecksTheRecipesOwnModelBesideItsCheckers() throws Exception {
        Path f = dir.resolve("r.jsonl");
        assertEquals(0, Main.run("gen", "--ops", "300", "--processes", "4", "--recipe", "semaphore:2", "--seed", "5",
                "--out", f.toString()));
        // the recipe comes from the r.test.json gen wrote; its model is the 2-lease semaphore
        assertEquals(0, Main.run("check", f.toString(), "--model", "recipe"));
        JsonNode r = new ObjectMapper().readTree(dir.resolve("r.check/results.json").toFile());
        assertEquals(2, r.get("checkers").size(), r.toString());
        assertEquals("valid", r.get("checkers").get(1).get("verdict").asText());
        assertTrue(r.get("checkers").get(1).toString().contains("semaphore:2"), r.toString());
        // the tutorial's locks are recipes to check too, not only to run
        assertEquals(0, Main.run("check", "checker/clean-mutex.jsonl", "--recipe", "naive-exclusive", "--out",
                dir.resolve("n").toString()));
    }

    @Test
    void impossibleParametersAreRejected() {
        assertEquals(2, Main.run("gen", "--processes", "0", "--out", dir.resolve("x").toString()));
        assertTrue(err().startsWith("lockchaos: --ops/--processes/--keys/rates:"), err());
        err.reset();
        assertEquals(2, Main.run("gen", "--bug", "gremlin", "--out", dir.resolve("x").toString()));
        assertTrue(err().contains("unknown bug 'gremlin'"), err());
    }

    @Test
    void checkWithAModelReportsTheCounterexample() throws Exception {
        Path h = dir.resolve("history.edn");
        Files.copy(Path.of("checker/lin-jepsen-cas.edn"), h);
        assertEquals(1, Main.run("check", h.toString(), "--model", "cas-register"));
        JsonNode r = new ObjectMapper().readTree(dir.resolve("history.check/results.json").toFile());
        assertEquals("linearizable", r.get("checker").asText());
        JsonNode a = r.get("anomalies").get(0);
        assertEquals("nonlinearizable", a.get("kind").asText());
        assertEquals(6, a.get("details").get("blocked_op").asInt(), "the invocation of the last read");
        assertEquals("value 4", a.get("details").get("state").asText());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("cannot take effect in state 'value 4'"));
        // with --recipe as well, both the dedicated checkers and the search run
        Files.copy(Path.of("checker/lin-expiry-releases.jsonl"), dir.resolve("e.jsonl"));
        // (a file without a test.json is read as Knossos reads it: the expiry releases nothing)
        assertEquals(1, Main.run("check", dir.resolve("e.jsonl").toString(), "--model", "owner-mutex", "--recipe",
                "mutex", "--expiry", "evidence"));
        JsonNode both = new ObjectMapper().readTree(dir.resolve("e.check/results.json").toFile());
        assertEquals("invalid", both.get("checkers").get(0).get("verdict").asText());
        assertEquals("valid", both.get("checkers").get(1).get("verdict").asText());
        assertEquals("evidence", both.get("expiry").asText());
        assertEquals(1, Main.run("check", dir.resolve("e.jsonl").toString(), "--model", "owner-mutex"));
        JsonNode knossos = new ObjectMapper().readTree(dir.resolve("e.check/results.json").toFile());
        assertEquals("invalid", knossos.get("verdict").asText());
        assertEquals("none", knossos.get("expiry").asText());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("model owner-mutex, expiry none)"));
        // a test.json beside it makes it a lockchaos run's history: evidence by default
        Files.writeString(dir.resolve("e.test.json"), "{\"recipe\": \"reentrant-mutex\"}");
        assertEquals(0, Main.run("check", dir.resolve("e.jsonl").toString(), "--model", "owner-mutex"));
        assertEquals("evidence", new ObjectMapper().readTree(dir.resolve("e.check/results.json").toFile())
                .get("expiry").asText());
        err.reset();
        assertEquals(2, Main.run("check", dir.resolve("e.jsonl").toString(), "--model", "mutex", "--expiry", "some"));
        assertTrue(err().startsWith("lockchaos: --expiry: expected none or evidence, got 'some'"), err());
        err.reset();
        assertEquals(2, Main.run("check", h.toString(), "--model", "queue"));
        assertTrue(err().contains("--model: unknown model 'queue'"), err());
    }

    @Test
    void genWritesRegisterHistories() {
        Path f = dir.resolve("reg.jsonl");
        assertEquals(0, Main.run("gen", "--workload", "cas-register", "--ops", "300", "--processes", "5",
                "--crashes", "20", "--seed", "4", "--out", f.toString()));
        assertEquals(0, Main.run("check", f.toString(), "--model", "cas-register"));
        assertEquals(2, Main.run("gen", "--workload", "queue", "--out", f.toString()));
        assertTrue(err().contains("unknown workload 'queue'"), err());
    }

    @Test
    void benchReportsEveryRoundForTheDedicatedCheckersAndAModel() {
        assertEquals(0, Main.run("bench", "--ops", "3000", "--processes", "5", "--seed", "2", "--repeat", "1"));
        String o = out.toString(StandardCharsets.UTF_8);
        assertTrue(o.contains("warm-up: ") && o.contains("round 1: ") && o.contains("verdict valid"), o);
        out.reset();
        assertEquals(0, Main.run("bench", "--ops", "3000", "--seed", "2", "--repeat", "1", "--model", "owner-mutex",
                "--recipe", "mutex", "--no-resources"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("verdict valid"));
    }

    @Test
    void benchWithReportsWritesThemEveryRoundAndTimesThem() throws Exception {
        Path reports = dir.resolve("bench-reports");
        assertEquals(0, Main.run("bench", "--ops", "3000", "--processes", "5", "--seed", "2", "--repeat", "1",
                "--reports", reports.toString()));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(2, o.lines().filter(l -> l.matches(".*; check [0-9.]+ s; total [0-9.]+ s; reports [0-9.]+ s; verdict .*")).count(),
                o);
        for (String f : List.of("timeline.html", "summary.txt", "junit.xml", "latency.svg", "rate.png")) {
            assertTrue(Files.size(reports.resolve(f)) > 0, f);
        }
    }

    @Test
    void aMatrixOverZooKeeperReleasesNeedsAZooKeeperRecipeAndOneListOfVersions() {
        assertEquals(2, Main.run("matrix", "--workload", "workloads/redis.json", "--zookeeper", "3.8.4"));
        assertEquals("lockchaos: workloads/redis.json: matrix over ZooKeeper releases: recipe redlock runs on no"
                + " ZooKeeper\n", err());
        err.reset();
        assertEquals(2, Main.run("matrix", "--workload", "workloads/zk-leader-kill.json", "--zookeeper", "3.8.4",
                "--curator", "5.5.0"));
        assertEquals("lockchaos: matrix: give one of --curator V1,V2,..., --zookeeper V1,V2,..., --library"
                + " V1,V2,... or --bisect A..B\n", err());
        err.reset();
        assertEquals(2, Main.run("matrix", "--workload", "workloads/pg-lease-kill.json", "--library", "6.3.1",
                "--store", dir.resolve("store").toString()));
        assertEquals("lockchaos: workloads/pg-lease-kill.json: matrix over library releases: recipe pg-lease wraps no"
                + " library (use shedlock-jdbc, shedlock-redis, shedlock-zookeeper, spring-jdbc, spring-redis,"
                + " spring-zookeeper, hazelcast-fenced or hazelcast-fenced-unsafe)\n", err());
        err.reset();
        Path store = dir.resolve("store");
        assertEquals(2, Main.run("matrix", "--workload", "workloads/zk-leader-kill.json", "--bisect", "zookeeper:3.8",
                "--store", store.toString()));
        assertEquals("lockchaos: --bisect: expected A..B or zookeeper:A..B, got 'zookeeper:3.8'\n", err());
        org.junit.jupiter.api.Assertions.assertFalse(java.nio.file.Files.exists(store),
                "a refused matrix leaves nothing in the store");
    }
}
