package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the Database work page (the tutorial's lock-then-transaction pattern, its three ways
 * under each fault): the same runner, as written, in a working copy of its own, in another test JVM's time.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class DatabaseDocCommandsTest {
    @Test
    void theDatabaseWorkPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.DATABASE_PAGES, 12);
    }
}
