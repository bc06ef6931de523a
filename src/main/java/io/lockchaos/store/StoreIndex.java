package io.lockchaos.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Every stored run under a store root, as the store browser lists them. A run is a folder holding {@code
 * history.jsonl}, at most {@value #MAX_DEPTH} levels down ({@code <test>/<time>/} as {@code run} stores them,
 * {@code examples/<name>/} for the committed examples); {@code latest} links are not followed, so each run is listed
 * once. What a run's files do not say is left empty, never guessed.
 */
public final class StoreIndex {
    static final int MAX_DEPTH = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    private StoreIndex() {
    }

    /**
     * One stored run.
     *
     * @param dir the run's folder relative to the store root, with '/' separators
     * @param test the test's name (test.json's or results.json's; else the parent folder's name)
     * @param verdict valid, invalid or unknown from results.json; "crashed" when the run did not finish (see
     *     {@code crash}); "unchecked" when there is neither
     * @param recipe the recipe, or empty
     * @param faults the fault schedule as the run expanded it, one entry per fault
     * @param durationSeconds from the history's first to its last op, or -1 when it cannot be read
     * @param anomalyKinds the kinds of the anomalies its checkers found
     * @param seed the seed, or empty
     * @param ops how many ops the history holds, or -1
     * @param modifiedMillis when its history was last written, for newest-first order
     * @param crash for a crashed run, the phase it was in and its error ("final heal: ..."), else empty
     */
    public record StoredRun(String dir, String test, String verdict, String recipe, List<String> faults,
                            double durationSeconds, List<String> anomalyKinds, String seed, long ops,
                            long modifiedMillis, String crash) {
    }

    /** The runs under {@code root}, newest first. A run whose files cannot be read is listed with what could be. */
    public static List<StoredRun> scan(Path root) throws IOException {
        List<StoredRun> runs = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return runs;
        }
        Path realRoot = root.toRealPath();
        List<Path> dirs = new ArrayList<>();
        // an unreadable folder, or a run deleted while the walk passes, costs that folder, not the listing
        Files.walkFileTree(root, java.util.EnumSet.noneOf(FileVisitOption.class), MAX_DEPTH + 1,
                new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(Path f,
                            java.nio.file.attribute.BasicFileAttributes a) {
                        if (f.getFileName().toString().equals(RunDir.HISTORY) && a.isRegularFile()
                                && !f.getParent().equals(root)) {
                            dirs.add(f.getParent());
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e) {
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                });
        for (Path dir : dirs) {
            try {
                runs.add(read(root, realRoot, dir));
            } catch (IOException | RuntimeException e) {
                // gone or unreadable since the walk saw it: not listed
            }
        }
        runs.sort(Comparator.comparingLong(StoredRun::modifiedMillis).reversed().thenComparing(StoredRun::dir));
        return runs;
    }

    /**
     * The one run in folder {@code dir} under {@code root} (a run page needs only its own line, not a walk of the
     * whole store), or null when it holds no history.
     */
    public static StoredRun run(Path root, Path dir) throws IOException {
        if (!RunDir.of(dir).hasHistory()) {
            return null;
        }
        return read(root, root.toRealPath(), dir);
    }

    private static StoredRun read(Path root, Path realRoot, Path dir) throws IOException {
        JsonNode test = json(realRoot, RunDir.of(dir).test());
        JsonNode results = json(realRoot, RunDir.of(dir).results());
        String name = text(test, "name");
        if (name.isEmpty()) {
            name = text(results, "name");
        }
        if (name.isEmpty()) {
            name = dir.getParent().getFileName().toString();
        }
        String recipe = text(test, "recipe").isEmpty() ? text(results, "recipe") : text(test, "recipe");
        List<String> faults = new ArrayList<>();
        if (test != null && test.get("schedule") != null) {
            test.get("schedule").forEach(f -> faults.add(f.asText()));
        }
        TreeSet<String> kinds = new TreeSet<>();
        if (results != null) {
            results.findValues("anomalies").forEach(list -> list.forEach(a -> {
                if (a.hasNonNull("kind")) {
                    kinds.add(a.get("kind").asText());
                }
            }));
        }
        String seed = text(test, "seed").isEmpty() ? text(results, "seed") : text(test, "seed");
        Path history = RunDir.of(dir).history();
        long[] span = span(history);
        JsonNode crashed = results == null ? json(realRoot, RunDir.of(dir).crashed()) : null;
        String crash = crashed == null ? "" : text(crashed, "phase") + ": " + text(crashed, "error");
        String verdict = results != null && results.hasNonNull("verdict") ? results.get("verdict").asText()
                : crashed != null ? "crashed" : "unchecked";
        long ops = results != null && results.hasNonNull("ops") ? results.get("ops").asLong() : -1;
        return new StoredRun(root.relativize(dir).toString().replace('\\', '/'), name, verdict, recipe,
                List.copyOf(faults), span == null ? -1 : (span[1] - span[0]) / 1e9, List.copyOf(kinds), seed, ops,
                Files.getLastModifiedTime(history).toMillis(), crash);
    }

    /**
     * A JSON file's tree, or null when it is missing, unreadable or a link out of the store (whose contents the
     * browser must not show); the run is still listed.
     */
    private static JsonNode json(Path realRoot, Path file) {
        try {
            return Files.isRegularFile(file) && file.toRealPath().startsWith(realRoot)
                    ? JSON.readTree(file.toFile()) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode node, String field) {
        return node == null || !node.hasNonNull(field) ? "" : node.get(field).asText();
    }

    /**
     * The times of the history's first and last ops, read from its first line and its last 64 KiB (a history may be
     * large, and the browser lists hundreds), or null when either cannot be read.
     */
    static long[] span(Path history) {
        try (RandomAccessFile f = new RandomAccessFile(history.toFile(), "r")) {
            String first = f.readLine();
            long len = f.length();
            int tail = (int) Math.min(len, 64 * 1024);
            byte[] buf = new byte[tail];
            f.seek(len - tail);
            f.readFully(buf);
            String[] lines = new String(buf, StandardCharsets.UTF_8).split("\n");
            String last = null;
            for (int i = lines.length - 1; i >= 0 && last == null; i--) {
                if (!lines[i].isBlank()) {
                    last = lines[i];
                }
            }
            if (first == null || last == null) {
                return null;
            }
            JsonNode a = JSON.readTree(first);
            JsonNode b = JSON.readTree(last);
            if (!a.hasNonNull("time") || !b.hasNonNull("time")) {
                return null;
            }
            return new long[] {a.get("time").asLong(), b.get("time").asLong()};
        } catch (IOException | RuntimeException e) {
            return null; // a history being written or cut short: the run is listed without a duration
        }
    }
}
