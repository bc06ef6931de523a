package io.lockchaos.zookeeper;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.agent.VersionResolver;
import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServerLogs;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.ContainerAddresses;
import io.lockchaos.cluster.Netns;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.fault.Schedule;
import io.lockchaos.ssh.SshOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * ZooKeeper as a lock service: Curator's recipes and the tutorial's hand-written locks on a raw handle. Its servers
 * are lockchaos' own dependency (nothing to install); the run records the ZooKeeper and Curator versions it ran
 * itself, and reads the lock nodes left at the end on a session of its own.
 */
public final class ZooKeeperService implements LockService {
    /** The servers' system property for how often they reap empty container nodes ({@code container_check_ms}). */
    private static final String REAP_EVERY = "znode.container.checkIntervalMs";

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

    /** Child JVMs on this machine, on the release {@code zookeeper} names. */
    private static LocalEnsemble.Builder local(ServerPlan plan, int tick, long every) {
        LocalEnsemble.Builder b = LocalEnsemble.builder(plan.folder()).size(plan.nodes()).tickTime(tick)
                .clockShift(plan.clockShift()).firstServerId((int) plan.number("first_server_id"))
                .zooKeeperJars(jars(plan.text("zookeeper")));
        if (plan.membership().reconfigurable()) {
            b.reconfigurable().spares(plan.membership().spares());
        }
        return every < 0 ? b : b.systemProperty(REAP_EVERY, Long.toString(every));
    }

    @Override
    public String fetch(ServiceSpec spec) {
        try {
            jars(String.valueOf(spec.setting("zookeeper")));
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** The jars of the servers' ZooKeeper release, or null for the linked one. */
    private static List<Path> jars(String version) {
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
        return ServiceSpec.first(releaseProblem(s), serverIdProblem(s), reapingProblem(s), diskProblem(s),
                membershipProblem(s), curatorSettingsProblem(s), s.firstRefusedFault(f -> clockProblem(s, f)));
    }

    @Override
    public ServerLogs serverLogs(Path servers) throws IOException {
        TxnLogs logs = TxnLogs.read(servers);
        if (logs.logs().isEmpty()) {
            return null;
        }
        List<Object> holes = new ArrayList<>();
        for (TxnLogs.Hole h : logs.holes()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("missing_on", h.missingOn());
            m.put("on", h.on());
            m.put("snapshots_after", h.snapshots());
            m.put("txns", h.txns().stream().map(t -> Map.of("zxid", "0x" + Long.toHexString(t.zxid()), "type",
                    t.type(), "path", t.path())).toList());
            holes.add(m);
        }
        Map<String, Object> counts = new LinkedHashMap<>();
        logs.logs().forEach((id, txns) -> counts.put(Integer.toString(id), txns.size()));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("transactions", counts);
        json.put("holes", holes);
        return new ServerLogs(logs.lines(), json,
                !logs.holes().stream().allMatch(TxnLogs.Hole::coveredBySnapshots));
    }

    /** A Curator recipe's retries and connection timeout out of range ({@link CuratorSettings}), or null. */
    private static String curatorSettingsProblem(ServiceSpec s) {
        String text = String.valueOf(s.setting("lock_settings"));
        if (!s.recipe().curator() || text.isBlank() || text.equals("null")) {
            return null;
        }
        Map<String, String> settings = new LinkedHashMap<>();
        try {
            new ObjectMapper().readTree(text).fields()
                    .forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
            CuratorSettings.of(settings);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        } catch (IOException e) {
            return null; // not JSON: the workload's own check of lock_settings says so
        }
    }

    /** ZooKeeper's keys, disk faults and membership changes, on a run of another service. */
    @Override
    public String refusalOfOthers(ServiceSpec s) {
        String version = String.valueOf(s.setting("zookeeper"));
        if (!ZooKeepers.linked(version)) {
            return VersionResolver.plausible(version) ? "zookeeper: a ZooKeeper release is for ZooKeeper recipes; "
                    + s.recipe().wireName() + " runs on " + s.recipe().backend().name().toLowerCase(Locale.ROOT)
                    : notAVersion(version);
        }
        if (s.number("container_check_ms") != -1) {
            return REAPING + "recipe " + s.recipe().wireName();
        }
        if (s.number("first_server_id") != 1) {
            return SERVER_ID + "recipe " + s.recipe().wireName();
        }
        for (FaultEvent e : s.schedule().events()) {
            FaultKind k = e.fault().kind();
            if (k.changesMembership()) {
                return "nemesis: " + k.wireName() + ": " + MEMBERSHIP;
            }
            if (k.damagesDisk()) {
                return "nemesis: " + k.wireName() + ": " + DISK;
            }
        }
        return null;
    }

    private static final String REAPING = "container_check_ms: sets a system property of the ZooKeeper servers"
            + " lockchaos starts as child JVMs (cluster local or netns), got ";
    private static final String SERVER_ID = "first_server_id: sets the myid of ZooKeeper servers lockchaos starts"
            + " as child JVMs (cluster local or netns), got ";
    private static final String MEMBERSHIP = "membership changes reconfigure ZooKeeper servers this machine runs: a"
            + " ZooKeeper recipe on cluster local or netns";
    private static final String DISK = "disk faults change ZooKeeper servers' transaction logs, which this machine"
            + " has only for cluster local or netns and a ZooKeeper recipe";

    private static String notAVersion(String version) {
        return "zookeeper: expected " + ZooKeepers.LINKED + " or a version such as 3.8.4, got '" + version + "'";
    }

    /**
     * Servers of another ZooKeeper release run its own QuorumPeerMain as child JVMs here: cluster local or netns, and
     * no cut between servers through proxies (which needs lockchaos' server main).
     */
    private static String releaseProblem(ServiceSpec s) {
        String version = String.valueOf(s.setting("zookeeper"));
        if (ZooKeepers.linked(version)) {
            return null;
        }
        if (!VersionResolver.plausible(version)) {
            return notAVersion(version);
        }
        return switch (s.cluster()) {
            case SSH -> "zookeeper: the hosts run the linked ZooKeeper (" + ZooKeepers.LINKED_VERSION + ") from"
                    + " lockchaos' own classes; another release runs on cluster local or netns";
            case CONTAINER -> "zookeeper: containers run the linked ZooKeeper (" + ZooKeepers.LINKED_VERSION
                    + "); another release runs on cluster local or netns";
            case LOCAL -> s.schedule().needsPeerProxies() ? "zookeeper: " + version + " runs ZooKeeper's own"
                    + " QuorumPeerMain, whose election connections bypass peer proxies: cut servers apart with"
                    + " cluster netns (iptables)" : null;
            case NETNS -> null;
        };
    }

    /** The myids of the servers this machine starts, the ones membership faults add after them. */
    private static String serverIdProblem(ServiceSpec s) {
        long first = s.number("first_server_id");
        if (first != 1 && (s.cluster() == ClusterKind.CONTAINER || s.cluster() == ClusterKind.SSH)) {
            return SERVER_ID + "cluster " + s.cluster().name().toLowerCase(Locale.ROOT);
        }
        int servers = s.nodes() + s.schedule().newServers();
        return first + servers - 1 > 254 ? "first_server_id: " + servers + " servers from " + first + " pass 254, the"
                + " highest myid ZooKeeper takes" : null;
    }

    private static String reapingProblem(ServiceSpec s) {
        return s.number("container_check_ms") != -1 && s.cluster() == ClusterKind.CONTAINER ? REAPING
                + "cluster container" : null;
    }

    /**
     * Reconfiguration gives the whole ensemble one list of server addresses: servers this machine runs, at least 3,
     * that dial each other directly (no peer proxies, which give each server its own view of the others).
     */
    private static String membershipProblem(ServiceSpec s) {
        Schedule schedule = s.schedule();
        FaultKind first = schedule.events().stream().map(e -> e.fault().kind()).filter(FaultKind::changesMembership)
                .findFirst().orElse(null);
        if (first == null) {
            return null;
        }
        String at = "nemesis: " + first.wireName() + ": ";
        if (s.cluster() == ClusterKind.CONTAINER) {
            return at + MEMBERSHIP;
        }
        if (s.nodes() < 3) {
            return at + "needs 3 or 5 nodes, got " + s.nodes();
        }
        if (schedule.needsPeerProxies() && !s.namespaces()) {
            return at + "one configuration for the whole ensemble cannot carry the per-server addresses of peer"
                    + " proxies: cut servers apart with cluster netns (iptables)";
        }
        for (FaultEvent e : schedule.events()) {
            long count = e.fault().option("count", 1);
            if (e.fault().kind() == FaultKind.ADD_MEMBER && (count < 1 || count > 2)) {
                return "nemesis: add-member: count: expected 1 or 2, got " + count;
            }
        }
        int spares = schedule.newServers();
        return spares > 2 ? "nemesis: add-member, replace-member: " + spares + " servers the ensemble never had; a run"
                + " starts at most 2 (each joins once)" : null;
    }

    /** Clocks move in processes this machine starts (not in containers), as far as the clock library moves them. */
    private static String clockProblem(ServiceSpec s, Fault f) {
        if (!f.kind().movesClocks()) {
            return null;
        }
        return s.cluster() == ClusterKind.CONTAINER ? "the clock library moves the clocks of servers this machine"
                + " starts (cluster local or netns), not of containers" : ServiceSpec.clockProblem(f);
    }

    /** A transaction log is edited on this machine's disk (not a container's), by a cut of 1 to 100000 txns. */
    private static String diskProblem(ServiceSpec s) {
        for (FaultEvent e : s.schedule().events()) {
            FaultKind k = e.fault().kind();
            if (k.damagesDisk() && s.cluster() == ClusterKind.CONTAINER) {
                return "nemesis: " + k.wireName() + ": " + DISK;
            }
            long txns = e.fault().option("txns", 10);
            if (k == FaultKind.TRUNCATE_LOG && (txns < 1 || txns > 100_000)) {
                return "nemesis: truncate-log: txns: expected 1 to 100000, got " + txns;
            }
        }
        return null;
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
    public ContainerAddresses containerAddresses() {
        return ContainerEnsemble.ADDRESSES;
    }

    @Override
    public Map<String, String> versions() {
        return Map.of();
    }

    /**
     * The lock nodes under each key that every server holds (each read on its own once it synced with the leader)
     * and that belong to a session or that no session's end removes, and those only some servers hold.
     */
    @Override
    public Inspection inspect(String connect, List<String> keys) throws InterruptedException {
        return ServerTrees.inspect(connect, keys);
    }
}
