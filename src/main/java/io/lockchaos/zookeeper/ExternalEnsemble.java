package io.lockchaos.zookeeper;

import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ServerNode;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** A user's existing ensemble, given by connect string: nothing is started, stopped, killed or paused. */
public final class ExternalEnsemble implements Cluster, FourLetterRoles {
    private final String connectString;
    private final List<ServerNode> nodes;

    private ExternalEnsemble(String connectString, List<ServerNode> nodes) {
        this.connectString = connectString;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Parses {@code host:port[,host:port...]} (an optional chroot suffix is kept in the connect string).
     *
     * @throws IllegalArgumentException naming the entry that is not host:port
     */
    public static ExternalEnsemble of(String connectString) {
        return new ExternalEnsemble(connectString, ServerNode.ofConnectString(connectString));
    }

    @Override
    public void start() {
        // someone else runs it
    }

    @Override
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (ServerNode n : nodes) {
                if (FourLetterWords.mode(n, 1000).isPresent()) {
                    return; // srvr may be disabled on a user's servers; one answer is enough to go on
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("no server of " + connectString + " answered srvr within "
                        + timeout.toMillis() + " ms");
            }
            Thread.sleep(100);
        }
    }

    @Override
    public String connectString() {
        return connectString;
    }

    @Override
    public List<ServerNode> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        // nothing was started here
    }
}
