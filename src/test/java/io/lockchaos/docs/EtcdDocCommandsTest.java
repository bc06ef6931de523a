package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the etcd locks page: its runs (the Jepsen findings, the partitions between members, the
 * exports and Knossos' checks) in a working copy of their own, in a test JVM's time apart from the other server pages.
 */
@Tag("catalogue") // the documented catalogue: mvn -B -Pcatalogue verify runs it (see pom.xml)
class EtcdDocCommandsTest {
    @Test
    void theEtcdPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.ETCD_PAGES, 5);
    }
}
