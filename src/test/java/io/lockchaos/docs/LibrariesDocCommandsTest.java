package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the lock libraries' page (ShedLock and Spring Integration: their late unlocks, a matrix
 * over ShedLock releases, a release that does not link, and a comparison of the two): the same runner, as written, in
 * a working copy of its own, in another test JVM's time.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class LibrariesDocCommandsTest {
    @Test
    void theLibrariesPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.LIBRARY_PAGES, 6);
    }
}
