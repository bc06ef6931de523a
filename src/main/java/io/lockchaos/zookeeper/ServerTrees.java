package io.lockchaos.zookeeper;

import io.lockchaos.client.LockService.Inspection;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The lock nodes of a run's keys as each server holds them, read at the end of a run through a session on that server
 * alone once it has synced with the leader, and compared. ZooKeeper promises every server the leader's tree once it
 * caught up, so a node that some servers have and others do not is a replica that lost transactions (ZOOKEEPER-4925's
 * hole), not a leaked lock. One session on the whole connect string reads whichever server it lands on: there a
 * divergence looked like a leak owned by a closed session, or went unseen.
 */
final class ServerTrees {
    /**
     * The inspecting sessions' timeout: each is closed when its read is done, so it only bounds how long its server
     * keeps it should the runner die mid-read (the servers clamp it to their 2 to 20 ticks).
     */
    private static final int SESSION_MILLIS = 4_000;
    /** How long one server may take to take a session and to sync: past it, it is left out of the comparison. */
    private static final Duration SERVER_WAIT = Duration.ofSeconds(10);
    /**
     * The pause before a divergence is read again: a session's end, committed while the servers were read one after
     * another, removes its nodes from those read later first; a divergence that lasts is no such race.
     */
    private static final long REREAD_MILLIS = 1_500;
    /** A sequential node's name: ZooKeeper appends ten digits; lockchaos' own data nodes are not sequential. */
    private static final Pattern SEQUENTIAL = Pattern.compile(".*\\d{10}");

    private ServerTrees() {
    }

    /** A lock node as one server holds it. */
    record Node(String key, String path, long owner) {
        /** A node the recipes make ephemeral, or a sequential one that no session's end will remove. */
        boolean lockNode() {
            // ZooKeeper 3.5.3 kept some lock nodes as TTL nodes, with no owner (ZOOKEEPER-2901)
            return owner != 0 || SEQUENTIAL.matcher(path.substring(path.lastIndexOf('/') + 1)).matches();
        }
    }

    /**
     * What every server at {@code connect} (a connect string: server 1 first) holds under {@code keys}: the lock
     * nodes all servers that answered agree on are {@code left}, those only some have are {@code diverged}.
     *
     * @throws IllegalStateException when no server answered
     */
    static Inspection inspect(String connect, List<String> keys) throws InterruptedException {
        List<String> servers = servers(connect);
        List<Map<String, Node>> trees = readAll(servers, keys);
        Comparison first = Comparison.of(trees);
        if (first.diverged().isEmpty() || servers.size() == 1) {
            return first.inspection(servers, trees);
        }
        Thread.sleep(REREAD_MILLIS);
        trees = readAll(servers, keys);
        return Comparison.of(trees).lasting(first).inspection(servers, trees);
    }

    /**
     * Each server's own connect string: {@code host:port}, with the chroot that a connect string puts after its last
     * address ({@code a:1,b:2/app}) on every one, since it applies to all of them.
     */
    static List<String> servers(String connect) {
        int slash = connect.indexOf('/');
        String chroot = slash < 0 ? "" : connect.substring(slash);
        String hosts = slash < 0 ? connect : connect.substring(0, slash);
        return java.util.Arrays.stream(hosts.split(",")).map(h -> h + chroot).toList();
    }

    private static List<Map<String, Node>> readAll(List<String> servers, List<String> keys)
            throws InterruptedException {
        List<Map<String, Node>> trees = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String server : servers) {
            try {
                trees.add(read(server, keys));
            } catch (IOException | KeeperException e) {
                trees.add(null);
                problems.add(server + ": " + e.getMessage());
            }
        }
        if (problems.size() == servers.size()) {
            throw new IllegalStateException("no server to inspect: " + String.join("; ", problems));
        }
        return trees;
    }

    /** One server's nodes under the keys (their own children, and Curator's {@code leases} and {@code locks}). */
    private static Map<String, Node> read(String server, List<String> keys)
            throws IOException, KeeperException, InterruptedException {
        ZooKeeper zk = ZooKeepers.connect(server, SESSION_MILLIS, SERVER_WAIT);
        try {
            sync(zk, server);
            Map<String, Node> nodes = new LinkedHashMap<>();
            for (String key : keys) {
                for (String dir : List.of(key, key + "/leases", key + "/locks")) {
                    List<String> children;
                    try {
                        children = zk.getChildren(dir, false);
                    } catch (KeeperException.NoNodeException e) {
                        continue;
                    }
                    for (String c : children) {
                        Stat s = zk.exists(dir + "/" + c, false);
                        if (s != null) {
                            nodes.put(dir + "/" + c, new Node(key, dir + "/" + c, s.getEphemeralOwner()));
                        }
                    }
                }
            }
            return nodes;
        } finally {
            zk.close();
        }
    }

    /** Brings the server up to the leader's last commit before it is read (a follower answers from its own tree). */
    private static void sync(ZooKeeper zk, String server) throws IOException, InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        int[] rc = {-1};
        zk.sync("/", (code, path, ctx) -> {
            rc[0] = code;
            done.countDown();
        }, null);
        if (!done.await(SERVER_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IOException("no sync within " + SERVER_WAIT.toMillis() + " ms");
        }
        if (rc[0] != KeeperException.Code.OK.intValue()) {
            throw new IOException("sync failed: " + KeeperException.Code.get(rc[0]));
        }
    }

    /** A node some servers have and others (that answered) do not; servers by their number, 1 first. */
    record Divergence(Node node, Set<Integer> on, Set<Integer> missingOn) {
        Map<String, Object> toValue() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("key", node.key());
            m.put("node", node.path());
            m.put("owner", node.owner());
            m.put("on", List.copyOf(on));
            m.put("missing_on", List.copyOf(missingOn));
            return m;
        }
    }

    /** The servers' trees compared: the nodes all have, and the divergences. */
    record Comparison(List<Node> agreed, List<Divergence> diverged) {
        static Comparison of(List<Map<String, Node>> trees) {
            Map<String, Node> union = new LinkedHashMap<>();
            Set<Integer> answered = new TreeSet<>();
            for (int i = 0; i < trees.size(); i++) {
                if (trees.get(i) != null) {
                    answered.add(i + 1);
                    trees.get(i).forEach(union::putIfAbsent);
                }
            }
            List<Node> agreed = new ArrayList<>();
            List<Divergence> diverged = new ArrayList<>();
            for (Node n : union.values()) {
                Set<Integer> on = new TreeSet<>();
                for (int s : answered) {
                    if (trees.get(s - 1).containsKey(n.path())) {
                        on.add(s);
                    }
                }
                if (on.equals(answered)) {
                    agreed.add(n);
                } else {
                    Set<Integer> missing = new TreeSet<>(answered);
                    missing.removeAll(on);
                    diverged.add(new Divergence(n, on, missing));
                }
            }
            return new Comparison(agreed, diverged);
        }

        /** These divergences but only those {@code earlier} read too, on the same servers: the ones that lasted. */
        Comparison lasting(Comparison earlier) {
            Set<String> before = new LinkedHashSet<>();
            earlier.diverged().forEach(d -> before.add(d.node().path() + d.on()));
            return new Comparison(agreed, diverged.stream().filter(d -> before.contains(d.node().path() + d.on()))
                    .toList());
        }

        Inspection inspection(List<String> servers, List<Map<String, Node>> trees) {
            List<Map<String, Object>> left = new ArrayList<>();
            for (Node n : agreed) {
                if (n.lockNode()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("key", n.key());
                    m.put("node", n.path());
                    m.put("owner", n.owner());
                    left.add(m);
                }
            }
            List<String> unread = new ArrayList<>();
            for (int i = 0; i < trees.size(); i++) {
                if (trees.get(i) == null) {
                    unread.add("server " + (i + 1) + " (" + servers.get(i) + ")");
                }
            }
            return new Inspection(left, List.of(), diverged.stream().map(Divergence::toValue).toList(), unread);
        }
    }
}
