package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.admin.ZooKeeperAdmin;
import org.apache.zookeeper.data.Stat;

/**
 * ZooKeeper's dynamic reconfiguration (3.5+) of an ensemble this machine runs: servers started with {@link #enable}
 * take {@code reconfig} from an administrator that authenticates as ZooKeeper's super user (the digest is set on the
 * servers only for such runs, so ACLs stay as they are). The configuration is one for the whole ensemble, so its
 * server lines must be the addresses every server dials: servers that reach each other directly (no peer proxies,
 * which give each server its own view of the others' addresses), as with netns or without cuts between servers.
 */
public final class Membership {
    private static final String SUPER = "super:lockchaos";

    private Membership() {
    }

    /**
     * What a reconfiguration left: the members by id and the configuration's version (a zxid, in hex);
     * {@code answerLost}: the change's own answer was lost with the connection, and this is the configuration read
     * after it.
     */
    public record Config(List<Integer> members, String version, String text, boolean answerLost) {
    }

    /** Sets up {@code b}'s servers for reconfiguration: {@code reconfigEnabled} and the super user's digest. */
    static LocalEnsemble.Builder enable(LocalEnsemble.Builder b) {
        try {
            return b.config("reconfigEnabled", "true").systemProperty(
                    "zookeeper.DigestAuthenticationProvider.superDigest",
                    org.apache.zookeeper.server.auth.DigestAuthenticationProvider.generateDigest(SUPER));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-1 for ZooKeeper's digest: " + e.getMessage(), e);
        }
    }

    /** The line that makes {@code n} a voting member again, with its client address. */
    public static String serverLine(ServerNode n) {
        return "server." + n.myid() + "=" + n.host() + ":" + n.quorumPort() + ":" + n.electionPort() + ":participant;"
                + n.host() + ":" + n.clientPort();
    }

    /** Removes the server whose myid is {@code id} from the ensemble's voting members. */
    public static Config remove(String connect, int id, int timeoutMillis) throws IOException, InterruptedException {
        return change(connect, List.of(), List.of(id), timeoutMillis);
    }

    /** Adds {@code n} back as a voting member. */
    public static Config add(String connect, ServerNode n, int timeoutMillis) throws IOException, InterruptedException {
        return change(connect, List.of(n), List.of(), timeoutMillis);
    }

    /**
     * One reconfiguration that makes {@code joining} voting members and takes the servers whose myids are {@code
     * leaving} out, as an operator replacing a server does ({@code reconfig -add ... -remove ...}): the ensemble never
     * has both or neither.
     */
    public static Config change(String connect, List<ServerNode> joining, List<Integer> leaving, int timeoutMillis)
            throws IOException, InterruptedException {
        String lines = joining.isEmpty() ? null
                : String.join(",", joining.stream().map(Membership::serverLine).toList());
        String ids = leaving.isEmpty() ? null : String.join(",", leaving.stream().map(String::valueOf).toList());
        try {
            return reconfigure(connect, lines, ids, timeoutMillis);
        } catch (Lost e) {
            return settle(connect, joining.stream().map(ServerNode::myid).toList(), leaving, timeoutMillis, e);
        }
    }

    /** The answer to a reconfiguration was lost with the connection: the change may or may not have been made. */
    private static final class Lost extends IOException {
        Lost(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * After a lost answer, reads the configuration until it shows {@code joining} among the members and {@code
     * leaving} out of them. Removing the leader loses the answer as a rule: the leader steps down and every follower
     * drops its clients until a new one is elected (10 of 20 removals of the leader here), though the change was
     * committed.
     */
    private static Config settle(String connect, List<Integer> joining, List<Integer> leaving, int timeoutMillis,
                                 Lost lost) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis + 5000L);
        Config seen = null;
        while (System.nanoTime() < deadline) {
            try {
                seen = reconfigure(connect, null, null, timeoutMillis);
                if (seen.members().containsAll(joining) && leaving.stream().noneMatch(seen.members()::contains)) {
                    return new Config(seen.members(), seen.version(), seen.text(), true);
                }
            } catch (IOException again) {
                // not reachable yet: the ensemble is electing
            }
            Thread.sleep(100);
        }
        throw new IOException(lost.getMessage() + (seen == null ? ", and no configuration could be read after"
                : ", and the configuration read after has members " + seen.members()), lost);
    }

    /** The voting members now, as the server asked knows them. */
    public static List<Integer> members(String connect, int timeoutMillis) throws IOException, InterruptedException {
        return reconfigure(connect, null, null, timeoutMillis).members();
    }

    /** Reconfigures, or with neither {@code joining} nor {@code leaving} reads the configuration. */
    private static Config reconfigure(String connect, String joining, String leaving, int timeoutMillis)
            throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeperAdmin admin = new ZooKeeperAdmin(connect, timeoutMillis, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        try {
            if (!connected.await(timeoutMillis + 5000L, TimeUnit.MILLISECONDS)) {
                throw new IOException("reconfig: no connection to " + connect);
            }
            admin.addAuthInfo("digest", SUPER.getBytes(StandardCharsets.UTF_8));
            byte[] config = joining == null && leaving == null ? admin.getConfig(false, new Stat())
                    : admin.reconfigure(joining, leaving, null, -1, new Stat());
            return parse(new String(config, StandardCharsets.UTF_8));
        } catch (KeeperException.ConnectionLossException e) {
            throw new Lost(what(joining, leaving) + ": " + e.getMessage(), e);
        } catch (KeeperException e) {
            throw new IOException(what(joining, leaving) + ": " + e.getMessage(), e);
        } finally {
            admin.close();
        }
    }

    private static String what(String joining, String leaving) {
        return joining != null ? "reconfig add " + joining : leaving != null ? "reconfig remove " + leaving
                : "reading the configuration";
    }

    /** Reads a configuration as ZooKeeper writes it: {@code server.N=...} lines and {@code version=HEX}. */
    static Config parse(String text) {
        List<Integer> members = new ArrayList<>();
        String version = "";
        for (String line : text.split("\n")) {
            String l = line.trim();
            if (l.startsWith("server.") && l.indexOf('=') > 7) {
                members.add(Integer.parseInt(l.substring(7, l.indexOf('='))));
            } else if (l.startsWith("version=")) {
                version = l.substring("version=".length());
            }
        }
        members.sort(null);
        return new Config(List.copyOf(members), version, text, false);
    }
}
