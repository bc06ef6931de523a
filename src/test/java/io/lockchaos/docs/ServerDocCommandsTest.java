package io.lockchaos.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the pages of the servers' workloads (Database locks, Redis locks, ZooKeeper ensembles):
 * the same runner, as written, in a working copy of its own, in another test JVM's time.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class ServerDocCommandsTest {
    @Test
    void theServerPagesCommandsRunAsWritten() throws Exception {
        List<Path> pages = DocCommandsTest.pages().stream()
                .filter(p -> DocCommandsTest.SERVER_PAGES.contains(p.getFileName().toString())).toList();
        assertEquals(DocCommandsTest.SERVER_PAGES.size(), pages.size(), "every server page is there: " + pages);
        DocCommandsTest.runAll(pages, 10);
    }
}
