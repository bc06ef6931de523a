package io.lockchaos.report;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.history.History;
import io.lockchaos.store.RunDir;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes every report of a checked history into one folder. Reports render what the checkers decided; nothing here
 * grades a history.
 *
 * <p>Files written: {@code timeline.html}, {@code latency.png/.svg}, {@code latency-quantiles.png/.svg},
 * {@code rate.png/.svg}, {@code summary.txt} and {@code junit.xml}. results.json is the caller's, because where it
 * goes differs ({@code check --results}); see {@link ResultsJson}.
 *
 * <p>{@code about} describes the run. The keys read here: {@code name} (the test's name, for junit.xml; default: the
 * folder's name, without a {@code .check} suffix), {@code history}, {@code ops}, {@code recipe} and {@code model} (for the headline, see
 * {@link #headline}). Scalar entries also become junit.xml properties and appear in the page.
 */
public final class Reports {
    private Reports() {
    }

    /**
     * Writes all reports of {@code h} and its {@code result} into {@code dir}, creating it if needed.
     *
     * @return the files written
     * @throws IOException when a file cannot be written; the files written before it stay
     */
    public static List<Path> writeAll(Path dir, History h, CheckResult result, Map<String, Object> about)
            throws IOException {
        return writeAll(dir, h, result, about, null);
    }

    /**
     * As {@link #writeAll(Path, History, CheckResult, Map)}, with the plots already started by {@link #startPlots}
     * for this folder and history (or null to draw them here).
     */
    public static List<Path> writeAll(Path dir, History h, CheckResult result, Map<String, Object> about,
            PlotJob plots) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        String name = testName(dir, about);
        TimelineData data = TimelineData.of(h, result, TimelineHtml.DEFAULT_CAP);
        Path timeline = RunDir.of(dir).timeline();
        TimelineHtml.write(timeline, data, result, name + ": " + headline(about), about);
        out.add(timeline);
        out.addAll(plots != null ? plots.await() : Plots.write(dir, h, data.faults()));
        Path summary = RunDir.of(dir).summary();
        Files.writeString(summary, summary(headline(about), result), StandardCharsets.UTF_8);
        out.add(summary);
        Path junit = RunDir.of(dir).junit();
        JunitXml.write(junit, name, result, about);
        out.add(junit);
        return out;
    }

    /**
     * Starts drawing the plots of {@code h} into {@code dir} on a thread of their own. The plots depend on the history
     * alone, and drawing them costs a fixed second or so (loading the charting and imaging code, compiling it), so
     * the caller checks the history meanwhile: on two cores a 1M-op check then ends a second earlier.
     */
    public static PlotJob startPlots(Path dir, History h) {
        return new PlotJob(dir, h);
    }

    /** Plots being drawn in the background; {@link #await} gives the files or rethrows what went wrong. */
    public static final class PlotJob {
        private final java.util.concurrent.CompletableFuture<List<Path>> files = new java.util.concurrent.CompletableFuture<>();

        private PlotJob(Path dir, History h) {
            Thread t = new Thread(() -> {
                try {
                    Files.createDirectories(dir);
                    files.complete(Plots.write(dir, h, FaultPeriods.of(h)));
                } catch (Throwable e) {
                    files.completeExceptionally(e);
                }
            }, "lockchaos-plots");
            t.setDaemon(true);
            t.start();
        }

        /** Waits for the plots. */
        public List<Path> await() throws IOException {
            try {
                return files.join();
            } catch (java.util.concurrent.CompletionException e) {
                Throwable c = e.getCause();
                if (c instanceof IOException io) {
                    throw io;
                }
                if (c instanceof RuntimeException re) {
                    throw re;
                }
                if (c instanceof Error err) {
                    throw err;
                }
                throw new IOException(c);
            }
        }
    }

    /**
     * The first line of the console summary: {@code HISTORY (N ops, recipe R, model M)}, from {@code about}'s
     * {@code history}, {@code ops}, {@code recipe} and {@code model}, and when the runner was frozen, its
     * {@code runner_stalls}; absent keys are left out.
     */
    public static String headline(Map<String, Object> about) {
        StringBuilder b = new StringBuilder(String.valueOf(about.getOrDefault("history", "history")));
        List<String> parts = new ArrayList<>();
        if (about.get("ops") != null) {
            parts.add(about.get("ops") + " ops");
        }
        if (about.get("recipe") != null) {
            parts.add("recipe " + about.get("recipe"));
        }
        if (about.get("model") != null) {
            parts.add("model " + about.get("model"));
        }
        if (about.get("expiry") != null) {
            parts.add("expiry " + about.get("expiry"));
        }
        String stalls = RunnerStalls.brief(RunnerStalls.fromMaps(about.get("runner_stalls")));
        if (stalls != null) {
            parts.add(stalls);
        }
        if (!parts.isEmpty()) {
            b.append(" (").append(String.join(", ", parts)).append(')');
        }
        return b.toString();
    }

    /**
     * The verdict of a run as the console shows it and summary.txt keeps it (one text, so the two never differ): the
     * summary, the lines {@code before} the stories, the first {@code shown} overlap stories (and how many more
     * results.json has), then the lines {@code after}. Written to the run's summary.txt and returned for printing.
     */
    public static String writeVerdict(Path dir, String headline, CheckResult result, List<String> before,
                                      List<OverlapStory> stories, int shown, List<String> after) throws IOException {
        StringBuilder text = new StringBuilder(summary(headline, result));
        before.forEach(l -> text.append(l).append('\n'));
        stories.stream().limit(shown).forEach(st -> st.lines().forEach(l -> text.append(l).append('\n')));
        if (stories.size() > shown) {
            text.append("  (").append(stories.size() - shown).append(" more stories in results.json)\n");
        }
        after.forEach(l -> text.append(l).append('\n'));
        Files.writeString(RunDir.of(dir).summary(), text.toString(), StandardCharsets.UTF_8);
        return text.toString();
    }

    /** Exactly what {@link ConsoleSummary#print} prints for this headline and result. */
    public static String summary(String headline, CheckResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ConsoleSummary.print(p, headline, result);
        p.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The checkers that ran, depth first: the leaves of a composed result, or the result itself. */
    public static List<CheckResult> leaves(CheckResult r) {
        if (r.children().isEmpty()) {
            return List.of(r);
        }
        List<CheckResult> out = new ArrayList<>();
        for (CheckResult c : r.children()) {
            out.addAll(leaves(c));
        }
        return out;
    }

    static String testName(Path dir, Map<String, Object> about) {
        Object n = about.get("name");
        if (n != null) {
            return n.toString();
        }
        Path f = dir.toAbsolutePath().normalize().getFileName();
        String s = f == null ? "history" : f.toString();
        // check writes the reports of NAME.jsonl into NAME.check/: the test is NAME.
        for (String suffix : new String[] {".check", ".report"}) {
            if (s.endsWith(suffix) && s.length() > suffix.length()) {
                return s.substring(0, s.length() - suffix.length());
            }
        }
        return s;
    }
}
