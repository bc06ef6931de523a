package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the lock libraries' page (ShedLock and Spring Integration: their late unlocks, a matrix
 * over ShedLock releases, a release that does not link, CURATOR-696 and its fix in Curator's leader latch, and a
 * comparison): the same runner, as written, in a working
 * copy of its own. The page's first run is {@code LibraryRunTest}'s, in every {@code mvn -B verify}.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class LibrariesDocCommandsTest {
    @Test
    void theLibrariesPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.LIBRARY_PAGES, 14);
    }
}
