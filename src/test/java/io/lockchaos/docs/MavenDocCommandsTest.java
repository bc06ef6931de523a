package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the pages whose commands run Maven (Your own lock's example project and the runs of its locks, Property testing's mutation testing of one class): the same runner, as written, in a working copy of its own, in another test JVM's
 * time.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class MavenDocCommandsTest {
    @Test
    void theMavenPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.MAVEN_PAGES, 8);
    }
}
