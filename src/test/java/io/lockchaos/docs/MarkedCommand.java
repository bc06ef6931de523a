package io.lockchaos.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A documented command that a test of its own runs rather than the documentation's tests (so that a run of minutes
 * overlaps the other slow tests): the page marks its block {@code not run: TestName runs it}, and the test reads the
 * command from there and runs it exactly as written, from a folder laid out as a clone's root.
 */
public final class MarkedCommand {
    private static final Path ROOT = Path.of("").toAbsolutePath();

    private MarkedCommand() {
    }

    /** What the command printed (standard output and error together) and its exit code. */
    public record Result(int exit, String output) {
    }

    /** The command of the block on {@code page} that the page marks as run by {@code test}. */
    public static String on(String page, String test) throws Exception {
        List<String> lines = Files.readAllLines(ROOT.resolve(page), StandardCharsets.UTF_8);
        String mark = "not run: " + test + " runs it";
        for (int i = 1; i + 1 < lines.size(); i++) {
            if (lines.get(i).equals("```sh") && lines.get(i - 1).contains(mark)) {
                return lines.get(i + 1).trim();
            }
        }
        throw new AssertionError(page + " has no block marked '" + mark + "'");
    }

    /**
     * Runs {@code command} with bash in {@code work}, where {@code links} (folders of the repository such as bin and
     * target) are linked, unless an earlier run there linked them; fails when it is still running after
     * {@code seconds}.
     */
    public static Result run(String command, Path work, List<String> links, int seconds) throws Exception {
        for (String link : links) {
            if (!Files.isSymbolicLink(work.resolve(link))) { // a second run in the same folder (a retry) has them
                Files.createSymbolicLink(work.resolve(link), ROOT.resolve(link));
            }
        }
        Path log = Files.createTempFile(work, "command-", ".log");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(work.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("LOCKCHAOS_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
        Process p = pb.start();
        try {
            assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), command + " still running after " + seconds + " s");
        } finally {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        return new Result(p.exitValue(), Files.readString(log));
    }
}
