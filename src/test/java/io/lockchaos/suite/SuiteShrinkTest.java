package io.lockchaos.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * suite --shrink: a workload that newly fails is shrunk within the budget, and the record and junit.xml name the
 * smaller workload. (A class of its own so that the slow tier's forks share these minutes with {@link SuiteTest}'s.)
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class SuiteShrinkTest {
    @TempDir
    Path dir;

    @Test
    void aNewFailureIsShrunkWithinTheBudgetAndTheRecordNamesTheSmallerWorkload() throws Exception {
        // the holder's session expires on the server while it keeps holding (client_mode ignore): invalid
        Path f = dir.resolve("w").resolve("suite-shrink.json");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "{\"name\": \"suite-shrink\", \"recipe\": \"mutex\", \"nodes\": 1, \"clients\": 3,"
                + " \"time_s\": 4, \"hold_ms\": 1500, \"nemesis\": \"at 1s expire holder\"}\n");
        String out = SuiteTest.suite(dir, 1, f.toString(), "--budget", "4m", "--shrink");
        assertTrue(out.contains("shrunk to "), out);
        SuiteEntry e = SuiteRecord.read(dir.resolve("store/suite/latest")).entries().get(0);
        assertEquals(SuiteEntry.Outcome.NOT_MET, e.outcome());
        assertTrue(Files.isRegularFile(Path.of(e.minimal())), "minimal.json is there: " + e);
        assertTrue(Files.readString(Path.of(e.minimal())).contains("\"expect\" : \"invalid\""),
                Files.readString(Path.of(e.minimal())));
        Element failure = (Element) SuiteTest.xml(dir.resolve("store/suite/latest/junit.xml")).getDocumentElement()
                .getElementsByTagName("failure").item(0);
        assertTrue(failure.getTextContent().contains("shrunk: bin/lockchaos run --workload " + e.minimal()),
                failure.getTextContent());
    }
}
