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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import us.bpsm.edn.Keyword;
import us.bpsm.edn.parser.Parseable;
import us.bpsm.edn.parser.Parsers;

class CorpusCheckTest extends ConsoleCapturing {
    @TempDir
    Path dir;

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * A store with a lockchaos run (test.json, latest link, a check/ folder), a Jepsen store run, loose files and
     * one file that cannot be read.
     */
    private Path corpus() throws Exception {
        Path store = dir.resolve("store");
        Path run = store.resolve("reentrant/20261201T000000");
        Files.createDirectories(run.resolve("check"));
        Files.copy(Path.of("histories/examples/double-grant/history.jsonl"), run.resolve("history.jsonl"));
        Files.copy(Path.of("histories/examples/double-grant/test.json"), run.resolve("test.json"));
        Files.copy(Path.of("checker/clean-mutex.jsonl"), run.resolve("check/stray.jsonl")); // not a history's place
        Files.createSymbolicLink(store.resolve("reentrant/latest"), run.getFileName());
        Path jepsen = store.resolve("cas/20261201T000000.000Z");
        Files.createDirectories(jepsen);
        Files.copy(Path.of("checker/lin-jepsen-cas.edn"), jepsen.resolve("history.edn"));
        Files.copy(Path.of("checker/clean-mutex.jsonl"), store.resolve("clean.jsonl"));
        Files.writeString(store.resolve("broken.jsonl"), "{\"index\": 0, \"type\": \"ok\"\n");
        Files.createDirectories(store.resolve("clean.check"));
        Files.copy(Path.of("checker/overlap-1ns.jsonl"), store.resolve("clean.check/old.jsonl"));
        Files.writeString(jepsen.resolve("results.edn"), "{:valid? true}\n"); // Jepsen's, beside its history
        Files.copy(Path.of("checker/overlap-1ns.jsonl"), run.resolve("overhead-recorded.jsonl")); // run --overhead's
        Files.writeString(run.resolve("resources.jsonl"), "{\"t_ms\": 1000, \"heap_mb\": 40}\n"); // run's samples
        return store;
    }

    @Test
    void aFolderIsCheckedFileByFileWithATotalAnIndexAndTheWorstVerdict() throws Exception {
        Path store = corpus();
        assertEquals(List.of(store.resolve("broken.jsonl"), store.resolve("cas/20261201T000000.000Z/history.edn"),
                store.resolve("clean.jsonl"), store.resolve("reentrant/20261201T000000/history.jsonl")),
                CorpusCheck.find(List.of(store)), "links, check outputs, check/, results.edn, overhead rounds and"
                + " resource samples are not histories to check");
        // a folder named through a link is searched where it leads, under the name given
        assertEquals(List.of(store.resolve("reentrant/latest/history.jsonl")),
                CorpusCheck.find(List.of(store.resolve("reentrant/latest"))));
        assertEquals(1, Main.run("check", store.toString(), "--jobs", "2"));
        String[] lines = out().split("\n");
        assertTrue(lines[0].startsWith("UNKNOWN") && lines[0].contains("broken.jsonl  error: "), lines[0]);
        assertTrue(lines[1].startsWith("UNKNOWN") && lines[1].contains("nothing checked"), "a register history"
                + " under lock checkers checks nothing: " + lines[1]);
        assertTrue(lines[2].startsWith("VALID") && lines[2].contains("clean.jsonl"), lines[2]);
        assertTrue(lines[3].startsWith("INVALID") && lines[3].contains("double-holder: "), lines[3]);
        assertTrue(lines[4].startsWith("total: 4 files, ") && lines[4].contains("1 valid, 1 invalid, 2 unknown"
                + " (1 could not be read or checked); worst: invalid"), lines[4]);
        JsonNode index = new ObjectMapper().readTree(store.resolve("check-index.json").toFile());
        assertEquals("invalid", index.get("verdict").asText());
        assertEquals(4, index.get("files").asInt());
        assertEquals(1, index.get("unreadable").asInt());
        assertEquals("mutex", index.get("results").get(3).get("checked_as").asText(), "the run's own recipe");
        assertFalse(Files.exists(store.resolve("clean.check/results.json")), "no reports unless asked");
        try (var s = Files.list(store.resolve("reentrant/20261201T000000/check"))) {
            assertEquals(1, s.count(), "no reports unless asked");
        }
    }

    @Test
    void theWorstVerdictDecidesTheExitCodeAndAModelAppliesToEveryFile() throws Exception {
        Path a = dir.resolve("a");
        Files.createDirectories(a);
        Files.copy(Path.of("checker/clean-mutex.jsonl"), a.resolve("one.jsonl"));
        Files.copy(Path.of("checker/clean-mutex.jsonl"), a.resolve("two.jsonl"));
        assertEquals(0, Main.run("check", a.toString()));
        Files.writeString(a.resolve("three.jsonl"), "not json\n");
        assertEquals(2, Main.run("check", a.toString()), "an unreadable file is unknown; the others still count");
        assertTrue(out().contains("total: 3 files"), out());
        out.reset();
        // two files by name are a corpus too; the index goes where --out says
        Path ok = dir.resolve("ok.edn");
        assertEquals(0, Main.run("gen", "--workload", "cas-register", "--ops", "60", "--processes", "3", "--seed",
                "2", "--out", ok.toString()));
        assertEquals(1, Main.run("check", "--model", "cas-register", "--out", dir.resolve("idx").toString(),
                "checker/lin-jepsen-cas.edn", ok.toString()));
        assertTrue(out().contains("VALID ") && out().contains("ok.edn"), out());
        assertTrue(Files.exists(dir.resolve("idx/check-index.json")));
        assertTrue(out().contains("checker/lin-jepsen-cas.edn  nonlinearizable: "), out());
        err.reset();
        assertEquals(2, Main.run("check", dir.resolve("nothing-here").toString(), a.toString()));
        assertTrue(err().contains("nothing-here: no such file or folder"), err());
    }

    @Test
    void reportsPerFileOnlyWhenAsked() throws Exception {
        Path store = corpus();
        assertEquals(1, Main.run("check", store.toString(), "--report", "--results-format", "edn"));
        assertTrue(Files.exists(store.resolve("clean.check/results.json")));
        assertTrue(Files.exists(store.resolve("clean.check/results.edn")));
        assertTrue(Files.exists(store.resolve("clean.check/timeline.html")));
        assertTrue(Files.exists(store.resolve("reentrant/20261201T000000/check/results.json")));
    }

    @Test
    void resultsEdnIsAJepsenResultsMap() throws Exception {
        Path h = dir.resolve("cas.edn");
        Files.copy(Path.of("checker/lin-jepsen-cas.edn"), h);
        assertEquals(1, Main.run("check", h.toString(), "--model", "cas-register", "--recipe", "mutex",
                "--results-format", "edn"));
        Parseable p = Parsers.newParseable(Files.readString(dir.resolve("cas.check/results.edn")));
        @SuppressWarnings("unchecked")
        Map<Object, Object> r = (Map<Object, Object>) Parsers.newParser(Parsers.defaultConfiguration()).nextValue(p);
        assertEquals(Boolean.FALSE, r.get(Keyword.newKeyword("valid?")));
        @SuppressWarnings("unchecked")
        Map<Object, Object> lin = (Map<Object, Object>) r.get(Keyword.newKeyword("linearizable"));
        assertEquals(Boolean.FALSE, lin.get(Keyword.newKeyword("valid?")));
        assertEquals(List.of(Keyword.newKeyword("nonlinearizable")), lin.get(Keyword.newKeyword("anomaly-types")));
        @SuppressWarnings("unchecked")
        Map<Object, Object> lock = (Map<Object, Object>) r.get(Keyword.newKeyword("lock"));
        assertEquals(Keyword.newKeyword("unknown"), lock.get(Keyword.newKeyword("valid?")),
                "lock checkers on a register history checked nothing: Jepsen's :unknown");
        assertTrue(out().contains("results.edn: "), out());
        err.reset();
        assertEquals(2, Main.run("check", h.toString(), "--results-format", "yaml"));
        assertTrue(err().contains("--results-format: expected json or edn, got 'yaml'"), err());
    }

    @Test
    void genWritesARegisterCorpusInJepsensLayoutThatCheckReads() throws Exception {
        Path c = dir.resolve("corpus");
        assertEquals(0, Main.run("gen", "--workload", "cas-register", "--count", "20", "--ops", "85", "--processes",
                "5", "--crashes", "3", "--bug", "stale-read", "--bug-every", "4", "--seed", "1", "--out",
                c.toString()));
        String said = out();
        assertTrue(Files.exists(c.resolve("cas-register/0000/history.edn")));
        assertTrue(Files.exists(c.resolve("cas-register/0019/history.edn")));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("stale read committed in ([0-9]+)").matcher(said);
        assertTrue(m.find(), said);
        int committed = Integer.parseInt(m.group(1));
        assertTrue(committed >= 1 && committed <= 5, said);
        out.reset();
        int code = Main.run("check", "--model", "cas-register", c.toString());
        assertEquals(1, code);
        assertTrue(out().contains("total: 20 files, ") && out().contains((20 - committed) + " valid, " + committed
                + " invalid, 0 unknown"), "every committed stale read is caught, nothing else: " + out());
    }

    @Test
    void genWritesALockCorpusAsStoredRunsThatCheckReadsWithTheirRecipes() throws Exception {
        Path c = dir.resolve("store");
        assertEquals(0, Main.run("gen", "--count", "6", "--ops", "300", "--processes", "4", "--recipe", "mutex",
                "--bug", "over-grant", "--bug-every", "3", "--seed", "11", "--out", c.toString()));
        assertTrue(Files.exists(c.resolve("gen-mutex/0005/history.jsonl")));
        assertTrue(Files.readString(c.resolve("gen-mutex/0005/test.json")).contains("\"recipe\" : \"mutex\""));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("committed in ([0-9]+)").matcher(out());
        assertTrue(m.find(), out());
        int committed = Integer.parseInt(m.group(1));
        out.reset();
        Main.run("check", c.toString());
        assertTrue(out().contains("total: 6 files, ") && out().contains(committed + " invalid, 0 unknown"), out());
        JsonNode index = new ObjectMapper().readTree(c.resolve("check-index.json").toFile());
        index.get("results").forEach(r -> assertEquals("mutex", r.get("checked_as").asText()));
    }
}
