package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the Redis locks and ZooKeeper ensembles pages (etcd's and PostgreSQL's are classes of
 * their own): the same runner, as written, in a working copy of its own, in another test JVM's time.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class ServerDocCommandsTest {
    @Test
    void theServerPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.SERVER_PAGES, 10);
    }
}
