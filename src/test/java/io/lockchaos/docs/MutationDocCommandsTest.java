package io.lockchaos.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DocCommandsTest} for the Property testing page (mutation testing of one class, a Maven build of its own):
 * the same runner, as written, in a working copy of its own, in another test JVM's time.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class MutationDocCommandsTest {
    @Test
    void thePropertyTestingPagesCommandsRunAsWritten() throws Exception {
        DocCommandsTest.runPages(DocCommandsTest.MUTATION_PAGES, 1);
    }
}
