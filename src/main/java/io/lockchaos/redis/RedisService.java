package io.lockchaos.redis;

import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.Netns;
import io.lockchaos.fault.FaultKind;
import java.util.EnumSet;
import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServiceSpec;
import java.util.Arrays;
import io.lockchaos.cluster.Cluster;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Redis as a lock service: independent instances of Debian's redis-server, and the locks of this package on them. */
public final class RedisService implements LockService {
    @Override
    public Backend backend() {
        return Backend.REDIS;
    }

    @Override
    public String name() {
        return "Redis";
    }

    @Override
    public String servers() {
        return "Redis instance(s)";
    }

    @Override
    public String servers(LockRecipe recipe) {
        return recipe.sentinel() ? "Redis instance(s) and " + RedisLocks.SENTINELS + " Sentinels" : servers();
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return new RedisLockFactory(recipe);
    }

    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        // Redisson's watchdog renews the lease from the client: a paused client's renewals must stop with it
        boolean renew = plan.recipe().kind() == LockRecipe.Kind.REDISSON
                || plan.recipe().kind() == LockRecipe.Kind.REDISSON_FENCED || plan.recipe().sentinel();
        int sentinels = plan.recipe().sentinel() ? RedisLocks.SENTINELS : 0;
        RedisServers.Builder b = RedisServers.builder(plan.folder()).size(plan.nodes()).sentinels(sentinels)
                .appendOnly(Boolean.parseBoolean(String.valueOf(plan.setting("redis_appendonly"))))
                .clockShift(plan.clockShift()).clientsRenew(renew);
        if (!plan.namespaces()) {
            return b.build();
        }
        Netns ns = Netns.create(plan.nodes() + sentinels);
        try {
            return b.netns(ns).build();
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    @Override
    public Set<ClusterKind> clusters() {
        return EnumSet.of(ClusterKind.LOCAL, ClusterKind.NETNS);
    }

    @Override
    public Set<String> keys() {
        return Set.of("redis_appendonly");
    }

    @Override
    public Set<FaultKind> ownFaults() {
        return EnumSet.noneOf(FaultKind.class);
    }

    @Override
    public Map<String, List<Map<String, String>>> setUps() {
        return Map.of("Redis", List.of(Map.of("recipe", "redis-single", "nodes", "1"), Map.of("recipe", "redlock",
                "nodes", "3"), Map.of("recipe", "redisson-sentinel", "nodes", "3", "cluster", "netns")));
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
        return true;
    }

    @Override
    public String refusal(ServiceSpec s) {
        String recipe = s.recipe().wireName();
        String lease = s.leaseProblem();
        if (lease != null) {
            return lease;
        }
        if (s.cluster() != ClusterKind.LOCAL && !(s.namespaces() && s.recipe().sentinel())) {
            return "cluster: " + recipe + " runs on local Redis instances (cluster local" + (s.namespaces()
                    ? "; netns is for a Sentinel recipe's servers, which talk to each other)" : "), not "
                    + s.cluster().wireName());
        }
        if (s.recipe().sentinel() && s.nodes() != 3) {
            return "nodes: " + recipe + " locks on a primary and two replicas: nodes 3, got " + s.nodes();
        }
        if (!s.recipe().multiInstance() && !s.recipe().sentinel() && s.nodes() != 1) {
            return "nodes: " + recipe + " locks on one instance: nodes 1, got " + s.nodes();
        }
        String why = ServiceSpec.first(s.notReentrantProblem(), s.firstRefusedFault(f -> {
            FaultKind k = f.kind();
            if (k == FaultKind.EXPIRE || k == FaultKind.EXPIRE_CLIENT_SIDE) {
                return "Redis locks have no sessions to expire (a lease ends by itself: use pause-client or"
                        + " clock-jump)";
            } else if (k.movesClocks()) {
                return ServiceSpec.clockProblem(f);
            } else if ((f.needsPeerProxies() || k == FaultKind.PACKET_LOSS) && s.recipe().sentinel()
                    && !s.namespaces()) {
                // a proxy on the replication would not stay: a Sentinel points a replica whose primary address is
                // not the one it knows back at that one (fix-slave-config), past the proxy
                return "cuts between a Sentinel deployment's servers need network namespaces (cluster netns: a"
                        + " Sentinel re-points replicas past a proxy): or cut the clients (isolate-client), or kill or"
                        + " pause the primary (leader), a replica (follower) or a Sentinel (node:N)";
            } else if ((f.needsPeerProxies() || k == FaultKind.PACKET_LOSS) && !s.recipe().sentinel()) {
                return "Redis instances do not talk to each other: there is nothing to cut or slow between them (use"
                        + " isolate or traffic faults on the target clients)";
            }
            return null;
        }));
        if (why != null) {
            return why;
        }
        // a mix draws its targets at random (a drawn leader fails at run time, recorded as such); a target the
        // user wrote is refused here
        for (String entry : s.nemesis().split("[;\n]")) {
            String e = entry.strip();
            if (!e.startsWith("mix") && !s.recipe().sentinel() && Arrays.asList(e.split("\\s+")).stream()
                    .anyMatch(w -> w.equals("leader") || w.equals("follower"))) {
                return "nemesis: '" + e + "': Redis instances have no leader or followers (use random, minority,"
                        + " majority, all or node:N; a Sentinel recipe's primary is its leader)";
            }
        }
        return null;
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public String missing() {
        return RedisServers.findExecutable() == null ? RedisServers.MISSING : null;
    }

    @Override
    public Map<String, String> versions() {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("redis", RedisServers.version());
        v.put("jedis", "8.0.2");
        return v;
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) {
        return RedisInspection.inspect(List.of(connect.split(",")), keys);
    }
}
