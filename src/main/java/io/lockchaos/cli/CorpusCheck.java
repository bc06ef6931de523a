package io.lockchaos.cli;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Severity;
import io.lockchaos.checker.Verdict;
import io.lockchaos.history.History;
import io.lockchaos.report.Reports;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * {@code check PATH...} over a corpus: every history under the given files and folders, checked in parallel in this
 * JVM, one line per file in path order, a total line and {@code check-index.json}. A file that cannot be read is
 * reported and counted as unknown; the others are still checked. The exit code is the worst verdict.
 */
final class CorpusCheck {
    /** How long a first anomaly's explanation may be on its file's line. */
    private static final int LINE_TEXT = 120;

    private final CheckCommand options;

    CorpusCheck(CheckCommand options) {
        this.options = options;
    }

    /**
     * One file's outcome.
     *
     * @param file the history
     * @param verdict its verdict; unknown when it could not be read or checked
     * @param ops ops read, or -1
     * @param millis reading and checking time
     * @param checkedAs the recipe and/or model it was checked against
     * @param first the first violation (or, without one, the first anomaly): its kind and explanation, or null
     * @param error why it could not be read or checked, or null
     */
    record FileResult(Path file, Verdict verdict, long ops, double millis, String checkedAs, String first,
                      String error) {
        /** Whether it may have been unknown for want of time or memory that other files were using. */
        boolean starved() {
            String why = (error == null ? "" : error) + " " + (first == null ? "" : first);
            return why.contains("OutOfMemoryError") || why.contains("time limit reached");
        }

        String shortReason() {
            String why = error != null ? error : first;
            return why == null ? "" : why.length() <= 60 ? why : why.substring(0, 57) + "...";
        }

        String line() {
            String tail = error != null ? "  error: " + error : first != null ? "  " + first : "";
            return String.format(Locale.ROOT, "%-7s %9s %9.1f ms  %s%s", verdict.name(), ops < 0 ? "-"
                    : ops + " ops", millis, file, tail);
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", file.toString());
            m.put("verdict", verdict.wireName());
            m.put("ops", ops);
            m.put("ms", Math.round(millis * 10) / 10.0);
            if (checkedAs != null) {
                m.put("checked_as", checkedAs);
            }
            if (first != null) {
                m.put("first_anomaly", first);
            }
            if (error != null) {
                m.put("error", error);
            }
            return m;
        }
    }

    int run() throws IOException {
        options.budget(); // bad options fail before any file is read
        List<Path> files = find(options.paths);
        if (files.isEmpty()) {
            throw new UserError(String.join(", ", options.paths.stream().map(Path::toString).toList())
                    + ": no histories found (history.jsonl, history.edn, *.jsonl, *.edn)");
        }
        int jobs = options.jobs != null ? options.jobs : Runtime.getRuntime().availableProcessors();
        if (jobs < 1) {
            throw new UserError("--jobs: expected at least 1, got " + jobs);
        }
        long t0 = System.nanoTime();
        List<FileResult> out = checkAll(files, jobs);
        if (jobs > 1) {
            recheckStarved(out);
        }
        return summarize(out, (System.nanoTime() - t0) / 1e9, Math.min(jobs, files.size())).exitCode();
    }

    /** Checks the files on {@code jobs} threads, printing each result in path order as soon as it is known. */
    private List<FileResult> checkAll(List<Path> files, int jobs) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, files.size()), r -> {
            Thread t = new Thread(r, "lockchaos-check");
            t.setDaemon(true);
            return t;
        });
        List<FileResult> out = new ArrayList<>();
        try {
            List<Future<FileResult>> pending = new ArrayList<>();
            for (Path f : files) {
                pending.add(pool.submit(() -> checkOne(f)));
            }
            for (Future<FileResult> f : pending) {
                FileResult r;
                try {
                    r = f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(e.getCause()); // checkOne catches what a file can cause
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new UserError("interrupted");
                }
                out.add(r);
                System.out.println(r.line()); // in path order, each as soon as it and those before it are done
            }
        } finally {
            pool.shutdownNow();
        }
        return out;
    }

    /**
     * Checked side by side, files share the cores and the heap: one whose search ran out of its wall-clock budget or
     * of memory is checked again alone, so it gets what a check of that file alone would give it.
     */
    private void recheckStarved(List<FileResult> out) {
        for (int i = 0; i < out.size(); i++) {
            FileResult r = out.get(i);
            if (r.verdict() == Verdict.UNKNOWN && r.starved()) {
                FileResult again = checkOne(r.file());
                out.set(i, again);
                System.out.println(again.line() + "  (checked again alone: " + r.shortReason() + ")");
            }
        }
    }

    /** Prints the total line and writes check-index.json; returns the worst verdict. */
    private Verdict summarize(List<FileResult> out, double seconds, int jobsUsed) throws IOException {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        Verdict worst = Verdict.VALID;
        long ops = 0;
        int unreadable = 0;
        for (FileResult r : out) {
            counts.merge(r.verdict(), 1, Integer::sum);
            worst = worst.and(r.verdict());
            ops += Math.max(0, r.ops());
            unreadable += r.error() != null ? 1 : 0;
        }
        System.out.println(String.format(Locale.ROOT, "total: %d files, %d ops, %.2f s with %d job(s): %d valid, %d"
                + " invalid, %d unknown%s; worst: %s", out.size(), ops, seconds, jobsUsed,
                counts.getOrDefault(Verdict.VALID, 0), counts.getOrDefault(Verdict.INVALID, 0),
                counts.getOrDefault(Verdict.UNKNOWN, 0), unreadable == 0 ? "" : " (" + unreadable
                + " could not be read or checked)", worst.wireName()));
        Path index = indexFolder().resolve("check-index.json");
        Files.createDirectories(index.toAbsolutePath().getParent());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("verdict", worst.wireName());
        m.put("files", out.size());
        m.put("ops", ops);
        m.put("seconds", Math.round(seconds * 1000) / 1000.0);
        m.put("jobs", jobsUsed);
        Map<String, Object> c = new LinkedHashMap<>();
        for (Verdict v : Verdict.values()) {
            c.put(v.wireName(), counts.getOrDefault(v, 0));
        }
        m.put("counts", c);
        m.put("unreadable", unreadable);
        m.put("results", out.stream().map(FileResult::toMap).toList());
        ResultsJson.writeMap(index, m);
        System.out.println("  index: " + index);
        return worst;
    }

    /** check-index.json goes into {@code --out}, else into the one folder given, else the working folder. */
    private Path indexFolder() {
        if (options.outDir() != null) {
            return options.outDir();
        }
        List<Path> dirs = options.paths.stream().filter(Files::isDirectory).toList();
        return dirs.size() == 1 && options.paths.size() == 1 ? dirs.get(0) : Path.of(".");
    }

    private FileResult checkOne(Path file) {
        long t0 = System.nanoTime();
        String checkedAs = null;
        History h = null;
        try {
            CheckCommand.Plan plan = options.plan(file);
            checkedAs = plan.recipe() == null ? "model " + plan.model().name()
                    : plan.recipe().name() + (plan.model() == null ? "" : " + model " + plan.model().name());
            h = HistoryInput.read(file, options.format());
            CheckResult result = plan.checker().check(h);
            if (options.report) {
                // as for one file, the verdict stands without the pictures
                Path dir = CheckCommand.defaultOut(file);
                try {
                    Files.createDirectories(dir);
                    Map<String, Object> about = CheckCommand.about(plan, file, h);
                    options.writeResultsQuietly(RunDir.of(dir).results(), result, about);
                    Reports.writeAll(dir, h, result, about);
                } catch (IOException | RuntimeException e) {
                    System.err.println("lockchaos: warning: " + dir + ": reports not written (" + e + ")");
                }
            }
            return new FileResult(file, result.verdict(), h.size(), ms(t0), checkedAs, first(result), null);
        } catch (UserError e) {
            return new FileResult(file, Verdict.UNKNOWN, h == null ? -1 : h.size(), ms(t0), checkedAs, null,
                    e.getMessage());
        } catch (RuntimeException | Error e) {
            // whatever one file causes is that file's unknown; the corpus goes on
            return new FileResult(file, Verdict.UNKNOWN, h == null ? -1 : h.size(), ms(t0), checkedAs, null,
                    String.valueOf(e));
        }
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    /** The first violation, else the first anomaly, as "kind: explanation" cut to one short line. */
    private static String first(CheckResult r) {
        List<Anomaly> all = r.allAnomalies();
        Anomaly a = all.stream().filter(x -> x.severity() == Severity.VIOLATION).findFirst()
                .orElse(all.isEmpty() ? null : all.get(0));
        if (a == null) {
            if (!r.checked()) {
                return "nothing checked: " + r.error();
            }
            // an unknown without anomalies says why (a search out of budget, a checker that failed)
            return r.verdict() == Verdict.UNKNOWN ? cut("unknown: " + unknownReason(r)) : null;
        }
        return cut(a.kind().wireName() + ": " + a.explanation());
    }

    private static String cut(String text) {
        String one = text.replace('\n', ' ');
        return one.length() <= LINE_TEXT ? one : one.substring(0, LINE_TEXT - 3) + "...";
    }

    private static String unknownReason(CheckResult r) {
        for (CheckResult leaf : Reports.leaves(r)) {
            if (leaf.verdict() == Verdict.UNKNOWN && leaf.error() != null) {
                return leaf.checker() + ": " + leaf.error();
            }
        }
        return String.valueOf(r.error());
    }

    /**
     * Every history under {@code paths}, sorted and without repeats: a file given by name whatever its name, and in
     * folders {@code history.jsonl}, {@code history.edn}, {@code *.jsonl} and {@code *.edn}. Links are not followed
     * (a store's {@code latest} would list a run twice), and check's own output folders and the servers' data are
     * not searched.
     */
    static List<Path> find(List<Path> paths) throws IOException {
        TreeSet<Path> found = new TreeSet<>();
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                found.add(p.normalize());
            } else if (Files.isDirectory(p)) {
                // a folder named through a link (a store's latest) is walked where it leads; the files keep its name
                Path real = p.toRealPath();
                try (Stream<Path> walk = Files.walk(real)) {
                    walk.filter(f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                            .filter(f -> history(f.getFileName().toString()))
                            .filter(f -> !skipped(real, real.relativize(f)))
                            .forEach(f -> found.add(p.resolve(real.relativize(f).toString()).normalize()));
                }
            } else if (Files.exists(p)) {
                throw new UserError(p + ": not a regular file or folder (a FIFO, device or socket is never read)");
            } else {
                throw new UserError(p + ": no such file or folder");
            }
        }
        return List.copyOf(found);
    }

    /**
     * Whether a file found in a folder is a history: {@code *.jsonl} and {@code *.edn}, except Jepsen's
     * {@code results.edn} beside its history, the recorder-overhead rounds of {@code run --overhead} (workers only,
     * no final phase, nothing to hold them to) and a run's resource samples ({@code resources.jsonl}: the runner's
     * memory and threads over time, not ops).
     */
    static boolean history(String name) {
        return (name.endsWith(".jsonl") || name.endsWith(".edn")) && !name.equals("results.edn")
                && !name.startsWith("overhead-") && !name.equals(RESOURCES);
    }

    /** The name of a run's resource samples ({@link RunDir#resources}). */
    private static final String RESOURCES = RunDir.of(Path.of("")).resources().getFileName().toString();

    /**
     * Whether a path under a searched folder is inside a folder check does not search: check's own output folders
     * ({@code NAME.check/}, and {@code check/} beside a run's history), the servers' data, hidden folders.
     */
    private static boolean skipped(Path root, Path rel) {
        Path at = root;
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
            String d = rel.getName(i).toString();
            boolean runCheck = d.equals("check") && RunDir.of(at).hasHistory();
            if (runCheck || d.endsWith(".check") || d.equals("servers") || d.equals("latest") || d.startsWith(".")) {
                return true;
            }
            at = at.resolve(d);
        }
        return false;
    }
}
