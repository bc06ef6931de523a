package io.lockchaos.cluster;

import java.nio.file.Path;

/**
 * One ZooKeeper server.
 *
 * @param id its place in the ensemble (1-based): {@code node-N}, {@code nN} in targets and reports
 * @param host the address it binds, always loopback for local servers
 * @param clientPort where clients connect
 * @param quorumPort where followers talk to the leader
 * @param electionPort where servers elect a leader
 * @param dataDir its snapshot and log directory, or null for an external server
 * @param logFile where it logs, or null for an external server
 * @param myid the id ZooKeeper knows it by (its {@code myid} file, {@code server.N} lines, reconfiguration): {@code id}
 *     unless the run asks for other ids ({@code first_server_id}), as ZooKeeper's session ids carry it in their top
 *     byte and ids from 128 make them negative (ZOOKEEPER-2901)
 */
public record ZkNode(int id, String host, int clientPort, int quorumPort, int electionPort, Path dataDir,
                     Path logFile, int myid) {
    public ZkNode(int id, String host, int clientPort, int quorumPort, int electionPort, Path dataDir, Path logFile) {
        this(id, host, clientPort, quorumPort, electionPort, dataDir, logFile, id);
    }

    public String clientAddress() {
        return host + ":" + clientPort;
    }
}
