package io.lockchaos.cluster;

import java.io.IOException;

/** A cluster whose servers can be killed (SIGKILL) and started again with their data. */
public interface Killable {
    void kill(ZkNode node);

    void restart(ZkNode node) throws IOException;
}
