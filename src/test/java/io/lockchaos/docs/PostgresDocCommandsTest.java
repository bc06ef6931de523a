package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the Database locks page (its nine workloads on PostgreSQL): the same runner, as written,
 * in a working copy of its own, in another test JVM's time.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class PostgresDocCommandsTest {
    @Test
    void thePostgresPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.POSTGRES_PAGES, 9);
    }
}
