package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** export writes EDN that lockchaos reads back to the same verdict, and Jepsen's lock workload shape exactly. */
class ExportCommandTest extends ConsoleCapturing {
    @TempDir
    Path dir;

    private Path run(String example) throws Exception {
        Path run = dir.resolve(example);
        Files.createDirectories(run);
        Files.copy(Path.of("histories/examples", example, "history.jsonl"), run.resolve("history.jsonl"));
        return run;
    }

    @Test
    void theJepsenLockShapeKeepsAcquiresReleasesAndFaultsAndKnossosReadingConvictsTheDoubleGrant() throws Exception {
        Path run = run("double-grant");
        assertEquals(0, Main.run("export", run.toString(), "--jepsen-lock"), err());
        Path edn = run.resolve("history.edn");
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(edn + ": "), out.toString(StandardCharsets.UTF_8));
        List<String> lines = Files.readAllLines(edn);
        assertFalse(lines.isEmpty());
        for (String l : lines) {
            if (l.contains(":process :nemesis")) {
                assertFalse(l.contains(":f :phase") || l.contains(":f :quiesce") || l.contains(":f :inspect"), l);
                continue;
            }
            assertTrue(l.matches("\\{:type :(invoke|ok|fail|info) :f :(acquire|release) :value nil :time \\d+"
                    + " :process \\d+ :index \\d+( :error.*)?}"), l);
        }
        assertEquals(1, Main.run("check", edn.toString(), "--model", "mutex", "--expiry", "none", "--no-report"),
                err());
    }

    @Test
    void theFullExportReadsBackToTheSameVerdict() throws Exception {
        Path run = run("double-grant");
        Path edn = dir.resolve("all.edn");
        assertEquals(0, Main.run("export", run.resolve("history.jsonl").toString(), "--out", edn.toString()), err());
        assertEquals(Files.readAllLines(run.resolve("history.jsonl")).size(), Files.readAllLines(edn).size());
        assertEquals(1, Main.run("check", edn.toString(), "--recipe", "reentrant-mutex", "--no-report"), err());
    }

    @Test
    void badInputGetsOneLineAndExitTwo() throws Exception {
        assertEquals(2, Main.run("export", dir.resolve("nope").toString()));
        assertTrue(err().contains("no such file"), err());
        Path run = run("double-grant");
        assertEquals(2, Main.run("export", run.toString(), "--out", run.resolve("history.jsonl").toString()));
        assertTrue(err().contains("is the history being read"), err());
    }
}
