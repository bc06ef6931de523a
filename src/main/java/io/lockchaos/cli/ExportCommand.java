package io.lockchaos.cli;

import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFiles;
import io.lockchaos.history.Op;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code export RUN_DIR|FILE}: writes a history as Jepsen EDN, one op map per line, so that Jepsen's and Knossos'
 * tools read what lockchaos recorded; {@code --jepsen-lock} writes exactly the shape of Jepsen's lock workload.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        header = "Write a history as Jepsen EDN.",
        description = {"Reads RUN_DIR/history.jsonl (or a history file) and writes Jepsen EDN, one op map per line:",
            "every op as it was recorded, or with --jepsen-lock only the lock's acquires and releases (and the",
            "nemesis' ops) in the shape Jepsen's lock workload writes: :value nil, no :key, :error :not-held.",
            "Exit code: 0 written, 2 bad input."})
final class ExportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR|FILE", description = "a run folder holding history.jsonl, or a"
            + " history file (JSONL or EDN)")
    Path input;

    @Option(names = "--out", description = "the EDN file to write (default: history.edn beside the history)")
    Path out;

    @Option(names = "--jepsen-lock", description = "Jepsen's lock workload shape: acquires, releases and nemesis ops"
            + " only; the history must have one lock key")
    boolean jepsenLock;

    @Override
    public Integer call() throws IOException {
        Path file = Files.isDirectory(input) ? RunDir.of(input).history() : input;
        if (!Files.isRegularFile(file)) {
            throw new UserError(input + ": " + (Files.isDirectory(input) ? "no history.jsonl in this folder"
                    : "no such file"));
        }
        History h = HistoryInput.read(file, HistoryFiles.Format.AUTO);
        Path target = out != null ? out : file.resolveSibling("history.edn");
        if (target.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize())) {
            throw new UserError("--out: " + target + " is the history being read");
        }
        if (jepsenLock) {
            Set<String> keys = new TreeSet<>();
            for (Op op : h.ops()) {
                if (!op.isNemesis() && (op.f() == Fn.ACQUIRE || op.f() == Fn.RELEASE) && op.key() != null) {
                    keys.add(op.key());
                }
            }
            if (keys.size() > 1) {
                throw new UserError(file + ": --jepsen-lock: Jepsen's lock workload has one lock, this history has "
                        + keys.size() + " (" + String.join(", ", keys) + ")");
            }
        }
        long written = 0;
        try (Writer w = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
            for (Op op : h.ops()) {
                String line = jepsenLock ? EdnHistory.toJepsenLock(op) : EdnHistory.toEdn(op);
                if (line != null) {
                    w.write(line);
                    w.write('\n');
                    written++;
                }
            }
        }
        System.out.println(target + ": " + written + " ops" + (jepsenLock ? " in Jepsen's lock workload shape" : ""));
        return 0;
    }
}
