package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.History;
import io.lockchaos.history.JsonlHistoryReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {
    @TempDir
    Path dir;

    @Test
    void headlineMatchesWhatCheckPrinted() {
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("history", "h.jsonl");
        about.put("recipe", "mutex");
        about.put("ops", 12);
        assertEquals("h.jsonl (12 ops, recipe mutex)", Reports.headline(about));
        about.put("model", "owner-mutex");
        assertEquals("h.jsonl (12 ops, recipe mutex, model owner-mutex)", Reports.headline(about));
        assertEquals("x", Reports.headline(Map.of("history", "x")));
    }

    @Test
    void summaryIsTheConsoleSummary() {
        CheckResult r = JunitXmlTest.composed();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        ConsoleSummary.print(new PrintStream(console, true, StandardCharsets.UTF_8), "h (3 ops)", r);
        String s = Reports.summary("h (3 ops)", r);
        assertEquals(console.toString(StandardCharsets.UTF_8), s);
        List<String> lines = s.lines().toList();
        assertEquals("h (3 ops): INVALID", lines.get(0));
        assertTrue(lines.get(1).startsWith("  mutual-exclusion  invalid"), lines.get(1));
        assertTrue(lines.get(3).contains("lost-updates") && lines.get(3).contains("no final read of /set"), s);
        assertTrue(lines.get(4).startsWith("  ! double-holder (ops [7, 5]): processes 1 and 2"), s);
    }

    @Test
    void writeAllWritesEveryFileForTheDoubleGrantExample() throws Exception {
        History h = JsonlHistoryReader.read(Path.of("histories/examples/double-grant/history.jsonl"));
        CheckResult r = Checkers.forRecipe(Recipe.REENTRANT_MUTEX).check(h);
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("history", "histories/examples/double-grant/history.jsonl");
        about.put("recipe", "reentrant-mutex");
        about.put("ops", h.size());
        Path run = dir.resolve("double-grant");
        List<Path> written = Reports.writeAll(run, h, r, about);
        for (String f : List.of("timeline.html", "latency.png", "latency.svg", "latency-quantiles.png",
                "latency-quantiles.svg", "rate.png", "rate.svg", "summary.txt", "junit.xml")) {
            assertTrue(written.contains(run.resolve(f)), f);
            assertTrue(Files.size(run.resolve(f)) > 500, f + " is too small");
        }
        assertEquals(9, written.size());
        assertEquals(1000, ImageIO.read(run.resolve("latency.png").toFile()).getWidth());
        assertTrue(Files.readString(run.resolve("latency.svg")).contains("<svg"));
        assertTrue(Files.readString(run.resolve("summary.txt")).startsWith(
                "histories/examples/double-grant/history.jsonl (348 ops, recipe reentrant-mutex): INVALID"));
        assertTrue(Files.readString(run.resolve("junit.xml")).contains("name=\"lockchaos.double-grant\""));
        String html = Files.readString(run.resolve("timeline.html"));
        assertTrue(html.contains("\"kind\":\"double-holder\""), "the anomaly is embedded");
        assertTrue(!html.contains("/*LOCKCHAOS_DATA*/") && !html.contains("{{TITLE}}"), "template filled in");
        assertTrue(!html.contains("http://") && !html.contains("https://"), "nothing from the network");
    }

    @Test
    void plotsOfAnEmptyHistoryStillRender() throws Exception {
        History h = new Ops().build();
        List<Path> written = Plots.write(dir, h, List.of());
        assertEquals(6, written.size());
        for (Path p : written) {
            assertTrue(Files.size(p) > 0, p.toString());
        }
    }
}
