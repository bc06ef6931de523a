package io.lockchaos.pg;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.DataConnection;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** PostgreSQL as a lock service: Debian's server binaries as child processes, and the locks of this package. */
public final class PgService implements LockService {
    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String servers() {
        return "PostgreSQL server(s)";
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return new PgLockFactory(recipe);
    }

    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        return PgServers.create(plan.folder(), plan.nodes(), plan.recipe().promises().leased(), plan.clockShift(),
                PgReplication.parse(String.valueOf(plan.setting("pg_replication"))), plan.routing());
    }

    @Override
    public boolean keepsData() {
        return true;
    }

    @Override
    public DataConnection openData(String address, Duration timeout) {
        return new PgData(address, timeout);
    }

    @Override
    public Cluster dataServers(Path folder, String replication, PeerRouting routing) throws IOException {
        PgReplication r = PgReplication.parse(replication);
        // no lease is renewed on the data's servers, and their clocks stay the machine's
        return PgServers.create(folder, r == PgReplication.NONE ? 1 : 2, false, false, r, routing);
    }

    @Override
    public String dataRefusal(String replication, List<Fault> faults) {
        PgReplication r;
        try {
            r = PgReplication.parse(replication);
        } catch (IllegalArgumentException e) {
            return "data_replication: " + e.getMessage();
        }
        int servers = r == PgReplication.NONE ? 1 : 2;
        for (Fault f : faults) {
            String at = "nemesis: " + f.kind().wireName() + " " + f.target() + ": ";
            int node = f.target().startsWith("data:") ? Integer.parseInt(f.target().substring(5)) : 0;
            if (f.kind() == FaultKind.FAILOVER && r == PgReplication.NONE) {
                return at + "it promotes the protected data's replica: it needs data_replication async or"
                        + " remote_apply";
            }
            if (f.kind() == FaultKind.FAILOVER && node != 2) {
                return at + "name the replica that takes over: data:2 (data:1 is the primary)";
            }
            if (node > servers) {
                return at + "the protected data has " + (servers == 1 ? "one server, data:1" : "two servers, data:1"
                        + " (the primary) and data:2 (its replica)");
            }
        }
        return null;
    }

    @Override
    public boolean keepsOwnData(LockRecipe recipe) {
        return recipe.kind() == LockRecipe.Kind.PG_ADVISORY_XACT;
    }

    @Override
    public Set<ClusterKind> clusters() {
        return EnumSet.of(ClusterKind.LOCAL);
    }

    @Override
    public Set<String> keys() {
        return Set.of("pg_replication");
    }

    @Override
    public Set<FaultKind> ownFaults() {
        return EnumSet.of(FaultKind.FAILOVER);
    }

    @Override
    public Map<String, List<Map<String, String>>> setUps() {
        return Map.of("PostgreSQL", List.of(Map.of("recipe", "pg-advisory", "nodes", "1"), Map.of("recipe", "pg-lease",
                "nodes", "3", "pg_replication", "async"), Map.of("recipe", "pg-lease", "nodes", "5", "pg_replication",
                "async")));
    }

    @Override
    public Agents agents() {
        return Agents.NONE;
    }

    @Override
    public boolean sessions() {
        return false;
    }

    @Override
    public boolean majority() {
        return false;
    }

    @Override
    public String refusal(ServiceSpec s) {
        String recipe = s.recipe().wireName();
        if (s.leaseRangeProblem() != null) {
            return s.leaseRangeProblem();
        }
        if (s.cluster() != ClusterKind.LOCAL) {
            return "cluster: " + recipe + " runs on a local PostgreSQL server (cluster local), not "
                    + s.cluster().wireName();
        }
        if (replicationProblem(s) != null) {
            return replicationProblem(s);
        }
        PgReplication replication = replication(s);
        boolean replicas = replication != PgReplication.NONE;
        if (!replicas && s.nodes() != 1) {
            return "nodes: " + recipe + " locks on one PostgreSQL server unless pg_replication gives it replicas:"
                    + " nodes 1, got " + s.nodes();
        }
        if (replicas && (s.nodes() < 2 || s.nodes() > 5)) {
            return "nodes: pg_replication " + replication.wireName() + " needs a primary and 1 to 4 replicas: nodes 2"
                    + " to 5, got " + s.nodes();
        }
        if (!s.recipe().promises().reentrant() && s.notReentrantProblem() != null) {
            return s.notReentrantProblem();
        }
        return s.firstRefusedFault(f -> {
            FaultKind k = f.kind();
            if (k == FaultKind.FAILOVER) {
                return failoverProblem(s, f);
            }
            return k == FaultKind.EXPIRE || k == FaultKind.EXPIRE_CLIENT_SIDE
                    ? "a PostgreSQL lock has no ZooKeeper session to expire (cut its connection: isolate)"
                    : k.movesClocks() ? ServiceSpec.clockProblem(f)
                    : k == FaultKind.PACKET_LOSS || f.needsPeerProxies() && !replicas
                    ? "one server: there is nothing to cut between servers (use isolate on the target clients)" : null;
        });
    }

    /** Replicas and the failover are PostgreSQL's own: a run on another service takes neither. */
    @Override
    public String refusalOfOthers(ServiceSpec s) {
        if (replicationProblem(s) != null) {
            return replicationProblem(s);
        }
        if (replication(s) != PgReplication.NONE) {
            return "pg_replication: replicas are PostgreSQL's: " + s.recipe().wireName() + " takes none";
        }
        return s.firstRefusedFault(f -> f.kind() == FaultKind.FAILOVER ? failoverProblem(s, f) : null);
    }

    private static PgReplication replication(ServiceSpec s) {
        return PgReplication.parse(String.valueOf(s.setting("pg_replication")));
    }

    /** Why {@code pg_replication} cannot be read, or null when it can. */
    private static String replicationProblem(ServiceSpec s) {
        try {
            replication(s);
            return null;
        } catch (IllegalArgumentException e) {
            return "pg_replication: " + e.getMessage();
        }
    }

    /** What is wrong with a failover: it promotes a replica, which only PostgreSQL with replicas has. */
    private String failoverProblem(ServiceSpec s, Fault f) {
        if (s.recipe().backend() != backend() || replication(s) == PgReplication.NONE) {
            return "it promotes a PostgreSQL replica: it needs a PostgreSQL recipe with pg_replication async or"
                    + " remote_apply";
        }
        int node = f.target().startsWith("node:") ? Integer.parseInt(f.target().substring(5)) : -1;
        if (node < 2 || node > s.nodes()) {
            return "name the replica that takes over: node:2 to node:" + s.nodes() + " (node 1 is the primary)";
        }
        return null;
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public String missing() {
        return PgServers.findBinaries() == null ? PgServers.MISSING : null;
    }

    @Override
    public Map<String, String> versions() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("postgresql", PgServers.version());
        v.put("pgjdbc", org.postgresql.Driver.getVersion());
        return v;
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) {
        return PgInspection.inspect(connect, keys);
    }
}
