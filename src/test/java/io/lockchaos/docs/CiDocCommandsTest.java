package io.lockchaos.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the CI page: the nightly suite and the soak with its memory bound, as written, in a
 * working copy of its own, in another test JVM's time.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class CiDocCommandsTest {
    @Test
    void theCiPagesCommandsRunAsWritten() throws Exception {
        List<Path> pages = DocCommandsTest.pages().stream()
                .filter(p -> DocCommandsTest.CI_PAGES.contains(p.getFileName().toString())).toList();
        assertEquals(DocCommandsTest.CI_PAGES.size(), pages.size(), "every CI page is there: " + pages);
        DocCommandsTest.runAll(pages, 2);
    }
}
