package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.SimConfig;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens timeline.html of the double-grant example in headless Chromium: once to dump the DOM after the scripts ran,
 * once for a screenshot (kept as target/timeline-double-grant.png for people to look at). Skipped when
 * /usr/bin/chromium is absent; {@code .ci/run} installs it.
 */
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class TimelineBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path PAGE_DIR = Path.of("target", "timeline-browser-test");

    @TempDir
    static Path profile;

    @BeforeAll
    static void writePage() throws Exception {
        History h = JsonlHistoryReader.read(Path.of("histories/examples/double-grant/history.jsonl"));
        CheckResult r = Checkers.forRecipe(Recipe.REENTRANT_MUTEX).check(h);
        Files.createDirectories(PAGE_DIR);
        Reports.writeAll(PAGE_DIR, h, r, Map.of("name", "double-grant", "history",
                "histories/examples/double-grant/history.jsonl", "recipe", "reentrant-mutex", "ops", h.size()));
    }

    /** A simulated run with faults and connection states merged in, to see the shading and the markers. */
    static History withFaults() {
        History sim = LockSimulator.run(SimConfig.defaults(Recipe.MUTEX).withTargetOps(600), 3).history();
        long end = sim.endTime();
        List<Op> extra = new ArrayList<>();
        extra.add(Op.of(OpType.INVOKE, end / 5, Op.NEMESIS, Fn.START, null, Map.of("fault", "partition", "nodes", "n1")));
        extra.add(Op.of(OpType.INFO, end / 5 + 1000, Op.NEMESIS, Fn.START, null, Map.of("fault", "partition")));
        extra.add(Op.of(OpType.OK, end / 4, 1, Fn.STATE, null, Map.of("state", "SUSPENDED")));
        extra.add(Op.of(OpType.OK, end / 3, 1, Fn.STATE, null, Map.of("state", "LOST")));
        extra.add(Op.of(OpType.INVOKE, 2 * end / 5, Op.NEMESIS, Fn.STOP, null, Map.of("fault", "partition")));
        extra.add(Op.of(OpType.INFO, 2 * end / 5 + 1000, Op.NEMESIS, Fn.STOP, null, null));
        extra.add(Op.of(OpType.OK, 2 * end / 5 + 2000, 1, Fn.STATE, null, Map.of("state", "RECONNECTED")));
        extra.add(Op.of(OpType.INVOKE, 3 * end / 5, Op.NEMESIS, Fn.KILL, null, Map.of("node", "n2")));
        extra.add(Op.of(OpType.INFO, 3 * end / 5 + 1000, Op.NEMESIS, Fn.KILL, null, Map.of("node", "n2")));
        extra.add(Op.of(OpType.INVOKE, 7 * end / 10, Op.NEMESIS, Fn.RESTART, null, Map.of("node", "n2")));
        extra.add(Op.of(OpType.INFO, 7 * end / 10 + 1000, Op.NEMESIS, Fn.RESTART, null, Map.of("node", "n2")));
        List<Op> merged = new ArrayList<>();
        int j = 0;
        for (Op op : sim.ops()) {
            while (j < extra.size() && extra.get(j).time() < op.time()) {
                merged.add(extra.get(j++));
            }
            merged.add(op.withIndex(-1));
        }
        return History.ofValid(merged);
    }

    @Test
    void aRunWithFaultsAndStatesRendersWithoutErrors() throws Exception {
        History h = withFaults();
        Path dir = PAGE_DIR.resolve("faults");
        // a name that once blanked the page (#42): "<!--<script>" in the embedded data held the parser
        Reports.writeAll(dir, h, Checkers.forRecipe(Recipe.MUTEX).check(h), Map.of("name", "faults <!--<script>"));
        String dom = chromium("--dump-dom", dir.resolve("timeline.html").toAbsolutePath().toUri().toString());
        assertEquals("true", bodyAttribute(dom, "data-ready"));
        assertTrue(dom.contains("faults &lt;!--&lt;script&gt;"), "the name is shown, as text");
        assertEquals(null, bodyAttribute(dom, "data-errors"), "script errors");
        assertTrue(dom.contains("partition n1"), "the fault period is listed");
        assertTrue(dom.contains("kill n2"), "the fault period is listed");
        Path shot = Path.of("target", "timeline-faults.png").toAbsolutePath();
        chromium("--screenshot=" + shot, "--window-size=1400,900", "--hide-scrollbars",
                dir.resolve("timeline.html").toAbsolutePath().toUri().toString());
        assertTrue(Files.size(shot) > 20_000);
    }

    /** Runs chromium with the common flags plus {@code extra} on the double-grant page, or on a page named last. */
    private static String chromium(String... extra) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "skipped: " + CHROMIUM + " is not installed"
                + " (apt-get install -y chromium; .ci/run installs it)");
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile.toAbsolutePath(), "--virtual-time-budget=5000"));
        cmd.addAll(List.of(extra));
        if (!extra[extra.length - 1].startsWith("file:")) {
            cmd.add(PAGE_DIR.resolve("timeline.html").toAbsolutePath().toUri().toString());
        }
        Path out = Files.createTempFile(profile, "stdout", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("chromium ran over 60 s");
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static String bodyAttribute(String dom, String name) {
        Matcher m = Pattern.compile("<body[^>]*\\s" + Pattern.quote(name) + "=\"([^\"]*)\"").matcher(dom);
        return m.find() ? m.group(1) : null;
    }

    @Test
    void theRenderedPageHasLanesAnomaliesAndNoScriptErrors() throws Exception {
        String dom = chromium("--dump-dom");
        assertEquals("true", bodyAttribute(dom, "data-ready"), "window.lockchaosReady was set after the first render");
        assertEquals("6", bodyAttribute(dom, "data-lanes"), "the nemesis, workers 0-3 and the probe 4");
        assertEquals(null, bodyAttribute(dom, "data-errors"), "script errors");
        assertTrue(dom.contains("<canvas id=\"timeline\""), "the canvas");
        int items = dom.split("<li class=\"anomaly", -1).length - 1;
        assertEquals(1, items, "one list item per anomaly");
        assertTrue(dom.contains("double-holder"));
    }

    @Test
    void aScreenshotShowsSomething() throws Exception {
        Path shot = Path.of("target", "timeline-double-grant.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        chromium("--screenshot=" + shot, "--window-size=1400,900", "--hide-scrollbars");
        assertTrue(Files.exists(shot), "no screenshot written");
        BufferedImage img = ImageIO.read(shot.toFile());
        assertEquals(1400, img.getWidth());
        // Non-trivial: many distinct colours, not a blank or single-colour page.
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 3) {
            for (int x = 0; x < img.getWidth(); x += 3) {
                colours.add(img.getRGB(x, y));
            }
        }
        assertTrue(colours.size() > 50, "only " + colours.size() + " colours");
        assertTrue(Files.size(shot) > 20_000, "screenshot is " + Files.size(shot) + " bytes");
    }
}
