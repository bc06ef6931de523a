package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest extends ConsoleCapturing {
    private static final List<String> REPORTS = List.of("timeline.html", "latency.png", "latency.svg",
            "latency-quantiles.png", "latency-quantiles.svg", "rate.png", "rate.svg", "summary.txt", "junit.xml");

    @TempDir
    Path dir;

    private Path run(String name, String example, String testJson) throws Exception {
        Path run = dir.resolve(name);
        Files.createDirectories(run);
        Files.copy(Path.of("histories/examples", example, "history.jsonl"), run.resolve("history.jsonl"));
        if (testJson != null) {
            Files.writeString(run.resolve("test.json"), testJson);
        }
        return run;
    }

    @Test
    void reportRechecksWithTestJsonsRecipeAndWritesEverything() throws Exception {
        Path run = run("dg", "double-grant", "{\"name\": \"double-grant\", \"recipe\": \"reentrant-mutex\", \"seed\": 7}");
        assertEquals(1, Main.run("report", run.toString()), err());
        for (String f : REPORTS) {
            assertTrue(Files.size(run.resolve(f)) > 0, f);
        }
        JsonNode r = new ObjectMapper().readTree(run.resolve("results.json").toFile());
        assertEquals("invalid", r.get("verdict").asText());
        assertEquals("reentrant-mutex", r.get("recipe").asText());
        assertEquals("double-grant", r.get("name").asText());
        assertTrue(Files.readString(run.resolve("junit.xml")).contains("<testsuite name=\"lockchaos.double-grant\""));
        String console = out.toString(StandardCharsets.UTF_8);
        assertTrue(console.startsWith(Files.readString(run.resolve("summary.txt"))), "summary.txt is the console's");
        assertTrue(console.contains("report: " + run.resolve("timeline.html")), console);
    }

    @Test
    void withoutTestJsonTheRecipeOptionDecides() throws Exception {
        Path run = run("rw", "correct-rw", null);
        assertEquals(0, Main.run("report", run.toString(), "--recipe", "rw"), err());
        assertTrue(Files.exists(run.resolve("timeline.html")));
        assertEquals("rw", new ObjectMapper().readTree(run.resolve("results.json").toFile()).get("recipe").asText());
    }

    @Test
    void badRunFoldersGetOneLineAndExitTwo() throws Exception {
        assertEquals(2, Main.run("report", dir.resolve("nope").toString()));
        assertEquals("lockchaos: " + dir.resolve("nope") + ": no such directory, expected a run folder", err().strip());
        err.reset();
        Files.createDirectories(dir.resolve("empty"));
        assertEquals(2, Main.run("report", dir.resolve("empty").toString()));
        assertEquals("lockchaos: " + dir.resolve("empty") + ": no history.jsonl in this folder", err().strip());
        err.reset();
        Path bad = run("bad", "double-grant", "{\"recipe\": ");
        assertEquals(2, Main.run("report", bad.toString()));
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().startsWith("lockchaos: " + bad.resolve("test.json") + ": not valid JSON"), err());
        err.reset();
        Path spin = run("spin", "double-grant", "{\"recipe\": \"spinlock\"}");
        assertEquals(2, Main.run("report", spin.toString()));
        assertTrue(err().startsWith("lockchaos: " + spin.resolve("test.json") + ": recipe: unknown recipe 'spinlock'"),
                err());
        err.reset();
        Path broken = dir.resolve("broken");
        Files.createDirectories(broken);
        Files.copy(Path.of("checker/err-two-invokes.jsonl"), broken.resolve("history.jsonl"));
        assertEquals(2, Main.run("report", broken.toString()));
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().contains("history.jsonl:2: type: process 0 invokes"), err());
        assertFalse(err().contains("\tat "), "no stack trace");
        assertFalse(Files.exists(broken.resolve("timeline.html")));
    }

    @Test
    void checkNeverTouchesARunsFindingsAndWritesIntoOneFolder() throws Exception {
        Path runDir = run("dg", "double-grant", "{\"name\": \"double-grant\", \"recipe\": \"reentrant-mutex\"}");
        assertEquals(1, Main.run("report", runDir.toString()), err());
        Path h = runDir.resolve("history.jsonl");
        String results = Files.readString(h.resolveSibling("results.json"));
        String summary = Files.readString(h.resolveSibling("summary.txt"));
        // no --recipe: the run's test.json says what it was
        assertEquals(1, Main.run("check", h.toString(), "--no-report"));
        assertEquals(results, Files.readString(h.resolveSibling("results.json")), "the run's results are kept");
        assertEquals(summary, Files.readString(h.resolveSibling("summary.txt")));
        JsonNode checked = new ObjectMapper().readTree(h.resolveSibling("check/results.json").toFile());
        assertEquals(new ObjectMapper().readTree(h.resolveSibling("test.json").toFile()).get("recipe").asText(),
                checked.get("recipe").asText(), "checked under the run's recipe");
        assertEquals(1, Main.run("check", h.toString(), "--recipe", "reentrant-mutex"));
        for (String f : REPORTS) {
            assertTrue(Files.exists(h.resolveSibling("check").resolve(f)), f);
        }
        Path other = dir.resolve("mine.jsonl");
        Files.copy(Path.of("checker/clean-mutex.jsonl"), other);
        assertEquals(0, Main.run("check", other.toString()));
        assertTrue(Files.exists(dir.resolve("mine.check/results.json")));
        assertTrue(Files.exists(dir.resolve("mine.check/timeline.html")));
        assertTrue(Files.readString(dir.resolve("mine.check/junit.xml")).contains("lockchaos.mine\""));
        Path quiet = dir.resolve("quiet.jsonl");
        Files.copy(Path.of("checker/clean-mutex.jsonl"), quiet);
        assertEquals(0, Main.run("check", quiet.toString(), "--no-report", "--out", dir.resolve("elsewhere").toString()));
        assertTrue(Files.exists(dir.resolve("elsewhere/results.json")));
        assertFalse(Files.exists(dir.resolve("elsewhere/timeline.html")));
    }
}
