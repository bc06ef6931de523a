package io.lockchaos.zookeeper;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a failed container start says: Testcontainers' outer message names no reason, its causes do. */
class ContainerStartFailureTest {
    @Test
    void theMessageCarriesEachDistinctCauseDownTheChain() {
        Exception inner = new IOException("Bind for 127.0.0.1:2181 failed: port is already allocated");
        Exception middle = new RuntimeException("Could not create/start container", inner);
        Exception outer = new RuntimeException("Container startup failed for image lockchaos/jre:17",
                new RuntimeException("Could not create/start container", middle));
        assertEquals("Container startup failed for image lockchaos/jre:17: Could not create/start container: Bind for"
                + " 127.0.0.1:2181 failed: port is already allocated", ContainerEnsemble.causes(outer));
    }

    @Test
    void aCauseWithoutAMessageIsNamedByItsType() {
        assertEquals("boom: NullPointerException",
                ContainerEnsemble.causes(new IllegalStateException("boom", new NullPointerException())));
    }
}
