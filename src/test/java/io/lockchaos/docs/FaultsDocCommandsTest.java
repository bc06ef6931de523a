package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the Faults page (the combined nemesis and its replay, the membership changes): the same
 * runner, as written, in a working copy of its own, in another test JVM's time.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class FaultsDocCommandsTest {
    @Test
    void theFaultsPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.FAULTS_PAGES, 4);
    }
}
