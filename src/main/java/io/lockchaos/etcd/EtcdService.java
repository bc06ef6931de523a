package io.lockchaos.etcd;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.Netns;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** etcd as a lock service: members of Debian's etcd-server as child processes, and its Lock API through jetcd. */
public final class EtcdService implements LockService {
    @Override
    public Backend backend() {
        return Backend.ETCD;
    }

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public String servers() {
        return "etcd member(s)";
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return new EtcdLockFactory(recipe);
    }

    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        if (!plan.namespaces()) {
            return EtcdServers.create(plan.folder(), plan.nodes());
        }
        Netns ns = Netns.create(plan.nodes());
        try {
            return EtcdServers.create(plan.folder(), plan.nodes(), ns);
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    @Override
    public boolean keepsOwnData(LockRecipe recipe) {
        return recipe.kind() == LockRecipe.Kind.ETCD_LOCK_FENCED;
    }

    @Override
    public Set<ClusterKind> clusters() {
        return EnumSet.of(ClusterKind.LOCAL, ClusterKind.NETNS);
    }

    @Override
    public Set<String> keys() {
        return Set.of();
    }

    @Override
    public Set<FaultKind> ownFaults() {
        return EnumSet.noneOf(FaultKind.class);
    }

    @Override
    public Map<String, List<Map<String, String>>> setUps() {
        return Map.of("etcd", List.of(Map.of("recipe", "etcd-lock", "nodes", "3"), Map.of("recipe", "etcd-lock", "nodes",
                "5", "cluster", "netns"), Map.of("recipe", "etcd-lock", "nodes", "3", "client_agents", "true")));
    }

    @Override
    public Agents agents() {
        return Agents.OWN_CLASSPATH;
    }

    @Override
    public boolean sessions() {
        return false;
    }

    @Override
    public boolean majority() {
        return true;
    }

    @Override
    public String refusal(ServiceSpec s) {
        String recipe = s.recipe().wireName();
        String lease = s.leaseProblem();
        if (lease != null) {
            return lease;
        }
        if (s.cluster() != ClusterKind.LOCAL && !s.namespaces()) {
            return "cluster: " + recipe + " runs on local etcd members (cluster local, or netns), not "
                    + s.cluster().wireName();
        }
        boolean netns = s.namespaces();
        return ServiceSpec.first(s.notReentrantProblem(), s.firstRefusedFault(f -> {
            FaultKind k = f.kind();
            if (k == FaultKind.EXPIRE || k == FaultKind.EXPIRE_CLIENT_SIDE) {
                return "etcd locks hold a lease, not a session to expire (a lease ends by itself: use pause-client)";
            } else if (f.movesServerClocks()) {
                return "etcd is a Go program, whose clock the clock library (an LD_PRELOAD of libc) cannot move";
            } else if (k.movesClocks()) {
                return ServiceSpec.clockProblem(f);
            } else if (!netns && (f.needsPeerProxies() || k == FaultKind.PACKET_LOSS)) {
                return "etcd members talk to each other directly here (each is told one peer address per member, so"
                        + " there is no per-pair proxy to cut): run them in network namespaces (cluster netns), or"
                        + " cut clients (isolate-client), or kill or pause members";
            }
            return null;
        }));
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public String missing() {
        return EtcdServers.findExecutable() == null ? EtcdServers.MISSING : null;
    }

    @Override
    public Map<String, String> versions() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("etcd", EtcdServers.version());
        v.put("jetcd", "0.8.5");
        return v;
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) throws InterruptedException {
        return EtcdInspection.inspect(List.of(connect.split(",")), keys);
    }
}
