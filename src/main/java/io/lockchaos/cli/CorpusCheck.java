package io.lockchaos.cli;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import io.lockchaos.history.History;
import io.lockchaos.report.Reports;
import io.lockchaos.report.ResultsJson;
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
        double seconds = (System.nanoTime() - t0) / 1e9;
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
        String total = String.format(Locale.ROOT, "total: %d files, %d ops, %.2f s with %d job(s): %d valid, %d"
                + " invalid, %d unknown%s; worst: %s", out.size(), ops, seconds, Math.min(jobs, files.size()),
                counts.getOrDefault(Verdict.VALID, 0), counts.getOrDefault(Verdict.INVALID, 0),
                counts.getOrDefault(Verdict.UNKNOWN, 0), unreadable == 0 ? "" : " (" + unreadable
                + " could not be read or checked)", worst.wireName());
        System.out.println(total);
        Path index = indexFolder().resolve("check-index.json");
        Files.createDirectories(index.toAbsolutePath().getParent());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("verdict", worst.wireName());
        m.put("files", out.size());
        m.put("ops", ops);
        m.put("seconds", Math.round(seconds * 1000) / 1000.0);
        m.put("jobs", Math.min(jobs, files.size()));
        Map<String, Object> c = new LinkedHashMap<>();
        for (Verdict v : Verdict.values()) {
            c.put(v.wireName(), counts.getOrDefault(v, 0));
        }
        m.put("counts", c);
        m.put("unreadable", unreadable);
        m.put("results", out.stream().map(FileResult::toMap).toList());
        ResultsJson.writeMap(index, m);
        System.out.println("  index: " + index);
        return worst.exitCode();
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
            h = HistoryFiles.read(file, options.format());
            CheckResult result = plan.checker().check(h);
            if (options.report) {
                Path dir = CheckCommand.defaultOut(file);
                Files.createDirectories(dir);
                Map<String, Object> about = CheckCommand.about(plan, file, h);
                options.writeResultsQuietly(dir.resolve("results.json"), result, about);
                Reports.writeAll(dir, h, result, about);
            }
            return new FileResult(file, result.verdict(), h.size(), ms(t0), checkedAs, first(result), null);
        } catch (UserError e) {
            return new FileResult(file, Verdict.UNKNOWN, h == null ? -1 : h.size(), ms(t0), checkedAs, null,
                    e.getMessage());
        } catch (IOException | RuntimeException | StackOverflowError | OutOfMemoryError e) {
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
        Anomaly a = all.stream().filter(x -> x.severity() == io.lockchaos.checker.Severity.VIOLATION).findFirst()
                .orElse(all.isEmpty() ? null : all.get(0));
        if (a == null) {
            return r.checked() ? null : "nothing checked: " + r.error();
        }
        String text = a.kind().wireName() + ": " + a.explanation().replace('\n', ' ');
        return text.length() <= LINE_TEXT ? text : text.substring(0, LINE_TEXT - 3) + "...";
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
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.filter(f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                            .filter(f -> {
                                String n = f.getFileName().toString();
                                return n.endsWith(".jsonl") || n.endsWith(".edn");
                            })
                            .filter(f -> !skipped(p, p.relativize(f)))
                            .forEach(f -> found.add(f.normalize()));
                }
            } else {
                throw new UserError(p + ": no such file or folder");
            }
        }
        return List.copyOf(found);
    }

    /**
     * Whether a path under a searched folder is inside a folder check does not search: check's own output folders
     * ({@code NAME.check/}, and {@code check/} beside a run's history), the servers' data, hidden folders.
     */
    private static boolean skipped(Path root, Path rel) {
        Path at = root;
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
            String d = rel.getName(i).toString();
            boolean runCheck = d.equals("check") && Files.isRegularFile(at.resolve("history.jsonl"));
            if (runCheck || d.endsWith(".check") || d.equals("servers") || d.equals("latest") || d.startsWith(".")) {
                return true;
            }
            at = at.resolve(d);
        }
        return false;
    }
}
