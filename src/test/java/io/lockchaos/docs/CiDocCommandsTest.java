package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the CI page: the nightly suite and the soak with its memory bound, as written, in a
 * working copy of its own, in another test JVM's time.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class CiDocCommandsTest {
    @Test
    void theCiPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.CI_PAGES, 2);
    }
}
