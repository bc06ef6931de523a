package io.lockchaos.zookeeper;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.ContainerEnsemble;
import io.lockchaos.cluster.ExternalEnsemble;
import io.lockchaos.cluster.LocalEnsemble;
import io.lockchaos.cluster.Netns;
import io.lockchaos.ssh.SshEnsemble;
import io.lockchaos.ssh.SshOptions;
import java.io.IOException;
import java.nio.file.Path;
import io.lockchaos.cluster.ZooKeepers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import io.lockchaos.fault.FaultKind;
import java.util.EnumSet;
import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.cluster.Cluster;
import java.util.Set;

/**
 * ZooKeeper as a lock service: Curator's recipes and the tutorial's hand-written locks on a raw handle. Its servers
 * are lockchaos' own dependency (nothing to install); the run records the ZooKeeper and Curator versions it ran
 * itself, and reads the lock nodes left at the end on a session of its own.
 */
public final class ZooKeeperService implements LockService {
    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    @Override
    public String name() {
        return "ZooKeeper";
    }

    @Override
    public String servers() {
        return "ZooKeeper server(s)";
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return recipe.curator() ? new CuratorLockFactory(recipe) : new ZooKeeperLockFactory(recipe);
    }

    /** Every kind of ensemble: the user's, on SSH hosts, in containers, in namespaces, or child JVMs here. */
    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        if (plan.connect() != null) {
            return ExternalEnsemble.of(plan.connect());
        }
        long every = plan.number("container_check_ms");
        int tick = (int) plan.number("tick_ms");
        switch (plan.cluster()) {
            case SSH -> {
                SshEnsemble.Builder b = SshEnsemble.builder(plan.folder()).hosts(SshOptions.hosts(plan.text("hosts")))
                        .options(SshOptions.of(plan::setting)).tickTime(tick).clockShift(plan.clockShift());
                return (every < 0 ? b : b.systemProperty(REAP_EVERY, Long.toString(every))).build();
            }
            case CONTAINER -> {
                return ContainerEnsemble.builder(plan.folder()).size(plan.nodes()).tickTime(tick)
                        .routing(plan.routing()).network(plan.network().get()).build();
            }
            case NETNS -> {
                // servers reach each other directly; cuts are iptables rules in their namespaces, not proxies;
                // servers that join later (membership faults) get namespaces of their own too
                Netns ns = Netns.create(plan.nodes() + plan.membership().spares());
                try {
                    return local(plan, tick, every).netns(ns).build();
                } catch (IOException | RuntimeException e) {
                    ns.close();
                    throw e;
                }
            }
            default -> {
                return local(plan, tick, every).routing(plan.routing()).build();
            }
        }
    }

    private static final String REAP_EVERY = "znode.container.checkIntervalMs";

    /** Child JVMs on this machine, on the release {@code zookeeper} names. */
    private static LocalEnsemble.Builder local(ServerPlan plan, int tick, long every) throws IOException {
        LocalEnsemble.Builder b = LocalEnsemble.builder(plan.folder()).size(plan.nodes()).tickTime(tick)
                .clockShift(plan.clockShift()).firstServerId((int) plan.number("first_server_id"))
                .zooKeeperJars(jars(plan.text("zookeeper")));
        if (plan.membership().reconfigurable()) {
            b.reconfigurable().spares(plan.membership().spares());
        }
        return every < 0 ? b : b.systemProperty(REAP_EVERY, Long.toString(every));
    }

    /** The jars of the servers' ZooKeeper release, or null for the linked one. */
    private static List<Path> jars(String version) throws IOException {
        if (ZooKeepers.linked(version)) {
            return null;
        }
        try {
            return VersionResolver.defaults(VersionResolver.Module.ZOOKEEPER).classpath(version);
        } catch (VersionResolver.UnresolvableVersion e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    @Override
    public Set<ClusterKind> clusters() {
        return EnumSet.allOf(ClusterKind.class);
    }

    @Override
    public Set<String> keys() {
        return Set.of("zookeeper", "first_server_id", "container_check_ms");
    }

    @Override
    public Set<FaultKind> ownFaults() {
        return EnumSet.of(FaultKind.TRUNCATE_LOG, FaultKind.CORRUPT_LOG, FaultKind.ROLLBACK, FaultKind.ADD_MEMBER,
                FaultKind.REMOVE_MEMBER, FaultKind.REPLACE_MEMBER);
    }

    @Override
    public Map<String, List<Map<String, String>>> setUps() {
        Map<String, List<Map<String, String>>> m = new LinkedHashMap<>();
        m.put("ZooKeeper", List.of(Map.of("recipe", "mutex", "nodes", "3"), Map.of("recipe", "mutex", "nodes", "5"),
                Map.of("recipe", "mutex", "nodes", "3", "cluster", "netns")));
        m.put("ZooKeeper over SSH", List.of(Map.of("recipe", "mutex", "cluster", "ssh", "hosts", "n1,n2,n3"),
                Map.of("recipe", "mutex", "cluster", "ssh", "hosts", "n1,n2,n3,n4,n5")));
        return m;
    }

    @Override
    public Agents agents() {
        return Agents.CURATOR_VERSIONS;
    }

    @Override
    public boolean sessions() {
        return true;
    }

    @Override
    public boolean majority() {
        return true;
    }

    @Override
    public String refusal(ServiceSpec s) {
        return s.firstRefusedFault(f -> !f.kind().movesClocks() ? null : s.cluster() == ClusterKind.CONTAINER
                ? "the clock library moves the clocks of servers this machine starts (cluster local or netns), not"
                + " of containers"
                : ServiceSpec.clockProblem(f));
    }

    @Override
    public void prepare(String connect, LockRecipe recipe, List<String> keys, int sessionTimeoutMillis)
            throws Exception {
        if (!recipe.naive()) {
            return;
        }
        ZooKeeper admin = ZooKeepers.connect(connect, sessionTimeoutMillis, Duration.ofSeconds(30));
        try {
            create(admin, "/lockchaos");
            for (String k : keys) {
                create(admin, k);
            }
        } finally {
            admin.close();
        }
    }

    /**
     * Creates a persistent node unless it is there. A connection lost in the meantime is tried again (the handle
     * reconnects by itself): right after an ensemble's start, beside other test JVMs, a fresh server once dropped the
     * connection under the first create, and the run ended with an internal error.
     */
    private static void create(ZooKeeper zk, String path) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                return;
            } catch (KeeperException.NodeExistsException e) {
                return; // already there, or made by the attempt whose answer was lost
            } catch (KeeperException.ConnectionLossException e) {
                if (attempt == CREATE_ATTEMPTS) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    private static final int CREATE_ATTEMPTS = 20;

    @Override
    public boolean takesExistingServers() {
        return true;
    }

    @Override
    public String missing() {
        return null;
    }

    @Override
    public Map<String, String> versions() {
        return Map.of();
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) {
        return null;
    }
}
