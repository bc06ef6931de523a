package io.lockchaos.cluster;

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

    /** What a reconfiguration left: the members by id and the configuration's version (a zxid, in hex). */
    public record Config(List<Integer> members, String version, String text) {
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
    public static String serverLine(ZkNode n) {
        return "server." + n.id() + "=" + n.host() + ":" + n.quorumPort() + ":" + n.electionPort() + ":participant;"
                + n.host() + ":" + n.clientPort();
    }

    /** Removes server {@code id} from the ensemble's voting members. */
    public static Config remove(String connect, int id, int timeoutMillis) throws IOException, InterruptedException {
        return reconfigure(connect, null, Integer.toString(id), timeoutMillis);
    }

    /** Adds {@code n} back as a voting member. */
    public static Config add(String connect, ZkNode n, int timeoutMillis) throws IOException, InterruptedException {
        return reconfigure(connect, serverLine(n), null, timeoutMillis);
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
        } catch (KeeperException e) {
            throw new IOException("reconfig " + (joining != null ? "add " + joining : "remove " + leaving) + ": "
                    + e.getMessage(), e);
        } finally {
            admin.close();
        }
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
        return new Config(List.copyOf(members), version, text);
    }
}
