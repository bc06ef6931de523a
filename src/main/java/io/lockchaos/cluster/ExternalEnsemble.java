package io.lockchaos.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A user's existing ensemble, given by connect string: nothing is started, stopped, killed or paused. */
public final class ExternalEnsemble implements Cluster {
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
        String hosts = connectString;
        int chroot = hosts.indexOf('/');
        if (chroot >= 0) {
            hosts = hosts.substring(0, chroot);
        }
        List<ServerNode> nodes = new ArrayList<>();
        int id = 1;
        for (String part : hosts.split(",")) {
            int colon = part.lastIndexOf(':');
            int port;
            try {
                port = colon > 0 ? Integer.parseInt(part.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("connect string: '" + part + "' is not host:port");
            }
            nodes.add(new ServerNode(id++, part.substring(0, colon), port, -1, -1, null, null));
        }
        return new ExternalEnsemble(connectString, nodes);
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
