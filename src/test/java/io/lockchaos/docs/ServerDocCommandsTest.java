package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the pages of the servers' workloads (Database locks, Redis locks, ZooKeeper ensembles;
 * etcd locks is {@link EtcdDocCommandsTest}'s): the same runner, as written, in a working copy of its own, in another
 * test JVM's time.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class ServerDocCommandsTest {
    @Test
    void theServerPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.SERVER_PAGES.stream()
                .filter(p -> !DocCommandsTest.ETCD_PAGES.contains(p)).toList(), 10);
    }
}
