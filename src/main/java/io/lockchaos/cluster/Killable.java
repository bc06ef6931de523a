package io.lockchaos.cluster;

import java.io.IOException;

/** A cluster whose servers can be killed (SIGKILL) and started again with their data. */
public interface Killable {
    void kill(ServerNode node);

    void restart(ServerNode node) throws IOException;
}
