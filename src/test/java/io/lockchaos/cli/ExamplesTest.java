package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed example runs are what the current code makes of them: {@code report} on a copy rewrites every report
 * byte for byte (the copy's path aside), so following the README never dirties a clone. After an intended change,
 * run {@code java -jar target/lockchaos.jar report histories/examples/NAME} for each and commit the result.
 */
class ExamplesTest {
    static final Path EXAMPLES = Path.of("histories", "examples");
    /** What a run recorded; report reads these and writes the rest. */
    static final Set<String> INPUTS = Set.of("history.jsonl", "test.json", "client.log", "servers");

    @TempDir
    Path dir;

    static Stream<String> examples() throws Exception {
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void reportRewritesTheCommittedReportsUnchanged(String name) throws Exception {
        Path committed = EXAMPLES.resolve(name);
        Path copy = dir.resolve(name);
        Files.createDirectories(copy);
        for (String f : List.of("history.jsonl", "test.json")) {
            if (Files.exists(committed.resolve(f))) {
                Files.copy(committed.resolve(f), copy.resolve(f));
            }
        }
        if (Files.isDirectory(committed.resolve("servers"))) {
            try (Stream<Path> s = Files.walk(committed.resolve("servers"))) {
                for (Path p : s.filter(Files::isRegularFile).toList()) {
                    Path to = copy.resolve(committed.relativize(p).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(p, to);
                }
            }
        }
        int code = Main.run("report", copy.toString());
        assertTrue(code == 0 || code == 1, "report exit " + code);
        List<Path> outputs;
        try (Stream<Path> s = Files.list(committed)) {
            outputs = s.filter(p -> !INPUTS.contains(p.getFileName().toString())).sorted().toList();
        }
        assertTrue(outputs.size() >= 8, "the example has its reports: " + outputs);
        for (Path want : outputs) {
            Path got = copy.resolve(want.getFileName().toString());
            String f = want.getFileName().toString();
            if (f.endsWith(".png")) {
                assertArrayEquals(Files.readAllBytes(want), Files.readAllBytes(got), f);
            } else {
                String text = Files.readString(got, StandardCharsets.UTF_8).replace(copy.toString(), committed.toString());
                assertEquals(Files.readString(want, StandardCharsets.UTF_8), text, name + "/" + f
                        + " would change: run report on it and commit the result");
            }
        }
    }
}
