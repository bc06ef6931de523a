package io.lockchaos.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One server of a lock service: a ZooKeeper server, a Redis instance, a PostgreSQL server, an etcd member.
 *
 * @param id its place in the ensemble (1-based): {@code node-N}, {@code nN} in targets and reports
 * @param host the address it binds, always loopback for local servers
 * @param clientPort where clients connect
 * @param quorumPort where servers talk to each other through a proxy of the run: ZooKeeper's followers to the leader,
 *     PostgreSQL's replicas to the primary (0 where there is no such link: Redis, etcd, one PostgreSQL server)
 * @param electionPort where ZooKeeper's servers elect a leader (0 for the other services)
 * @param dataDir its snapshot and log directory, or null for an external server
 * @param logFile where it logs, or null for an external server
 * @param myid the id ZooKeeper knows it by (its {@code myid} file, {@code server.N} lines, reconfiguration): {@code id}
 *     unless the run asks for other ids ({@code first_server_id}), as ZooKeeper's session ids carry it in their top
 *     byte and ids from 128 make them negative (ZOOKEEPER-2901)
 */
public record ServerNode(int id, String host, int clientPort, int quorumPort, int electionPort, Path dataDir,
                     Path logFile, int myid) {
    public ServerNode(int id, String host, int clientPort, int quorumPort, int electionPort, Path dataDir, Path logFile) {
        this(id, host, clientPort, quorumPort, electionPort, dataDir, logFile, id);
    }

    public String clientAddress() {
        return host + ":" + clientPort;
    }

    /** Whether the client port accepts a connection within {@code timeoutMillis}, whatever the server then says. */
    public boolean answers(int timeoutMillis) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(host, clientPort), timeoutMillis);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * The servers of a connect string {@code host:port[,host:port...]} (a suffix from the first {@code /}, ZooKeeper's
     * chroot, is not a server's), numbered from 1.
     *
     * @throws IllegalArgumentException naming the entry that is not host:port
     */
    public static List<ServerNode> ofConnectString(String connectString) {
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
        return nodes;
    }
}
