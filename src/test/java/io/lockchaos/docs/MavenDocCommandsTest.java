package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the Your own lock page (lockchaos and the example project built with Maven, and the runs
 * of the example's locks): the same runner, as written, in a working copy of its own, in another test JVM's time.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class MavenDocCommandsTest {
    @Test
    void theUserLockPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.MAVEN_PAGES, 7);
    }
}
