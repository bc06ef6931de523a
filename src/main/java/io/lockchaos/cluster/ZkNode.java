package io.lockchaos.cluster;

import java.nio.file.Path;

/**
 * One ZooKeeper server.
 *
 * @param id its myid (1-based)
 * @param host the address it binds, always loopback for local servers
 * @param clientPort where clients connect
 * @param quorumPort where followers talk to the leader
 * @param electionPort where servers elect a leader
 * @param dataDir its snapshot and log directory, or null for an external server
 * @param logFile where it logs, or null for an external server
 */
public record ZkNode(int id, String host, int clientPort, int quorumPort, int electionPort, Path dataDir,
                     Path logFile) {
    public String clientAddress() {
        return host + ":" + clientPort;
    }
}
