package io.lockchaos.hazelcast;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.RecipeFactory;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.Netns;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hazelcast as a lock service: members of the release the run names ({@code library_version}) as child JVMs, with
 * the CP Subsystem on all of them ({@code hazelcast-fenced}) or none ({@code hazelcast-fenced-unsafe}), and its
 * FencedLock through Hazelcast's client in client agents ({@code io.lockchaos.hazelcastlock}). A CP session outlives its
 * client's last heartbeat by the run's {@code session_timeout_ms}, in whole seconds (2 at least).
 */
public final class HazelcastService implements LockService {
    @Override
    public Backend backend() {
        return Backend.HAZELCAST;
    }

    @Override
    public String name() {
        return "Hazelcast";
    }

    @Override
    public String servers() {
        return "Hazelcast member(s)";
    }

    /**
     * What the recipe promises; its clients open only in client agents, on the resolved release (the runner never
     * loads Hazelcast).
     */
    @Override
    public LockFactory factory(LockRecipe recipe) {
        return new RecipeFactory(recipe, Backend.HAZELCAST) {
            @Override
            public Backend backend() {
                return Backend.HAZELCAST;
            }

            @Override
            public LockClient open(LockContext ctx) {
                throw new IllegalStateException(recipe.wireName() + " runs in client agents, on the Hazelcast"
                        + " release library_version names");
            }
        };
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        List<Path> jars = jars(plan.text("library_version"), plan.recipe());
        int cp = plan.recipe().kind() == LockRecipe.Kind.HAZELCAST_FENCED ? plan.nodes() : 0;
        int ttl = sessionTtlSeconds(plan.number("session_timeout_ms"));
        if (!plan.namespaces()) {
            return HazelcastMembers.create(plan.folder(), plan.nodes(), jars, cp, ttl, null);
        }
        Netns ns = Netns.create(plan.nodes());
        try {
            return HazelcastMembers.create(plan.folder(), plan.nodes(), jars, cp, ttl, ns);
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    /** A CP session's time to live: the session timeout in whole seconds, above the 1 s heartbeat. */
    static int sessionTtlSeconds(long sessionTimeoutMillis) {
        return (int) Math.max(2, (sessionTimeoutMillis + 999) / 1000);
    }

    @Override
    public String fetch(ServiceSpec spec) {
        try {
            jars(String.valueOf(spec.setting("library_version")), spec.recipe());
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** The jars of the Hazelcast release the run names (blank: the one the recipe is compiled against). */
    private static List<Path> jars(String version, LockRecipe recipe) {
        String v = version == null || version.isBlank() || version.equals("null")
                ? recipe.kind().library().compiledVersion() : version;
        try {
            return VersionResolver.defaults(VersionResolver.Artifact.of(recipe.kind())).classpath(v);
        } catch (VersionResolver.UnresolvableVersion e) {
            throw new IllegalArgumentException("library_version: " + e.getMessage());
        }
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
        return Map.of("Hazelcast", List.of(Map.of("recipe", "hazelcast-fenced", "nodes", "3"),
                Map.of("recipe", "hazelcast-fenced", "nodes", "5", "cluster", "netns")));
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
        if (s.cluster() != ClusterKind.LOCAL && !s.namespaces()) {
            return "cluster: " + recipe + " runs on local Hazelcast members (cluster local, or netns), not "
                    + s.cluster().wireName();
        }
        if (s.nodes() != 3 && s.nodes() != 5) {
            return "nodes: " + recipe + " runs on 3 or 5 Hazelcast members (a CP Subsystem has 3 at least), got "
                    + s.nodes();
        }
        String why = ServiceSpec.first(s.notReentrantProblem(), s.childServersFaultProblem("a Hazelcast CP session"
                + " ends by itself one TTL after its client's last heartbeat: cut or pause the client (isolate-client,"
                + " pause-client) instead of expiring it", "the clocks of Hazelcast members are not moved yet: move the"
                + " clients' (clock faults on clients) or pause members", "Hazelcast members talk to each other"
                + " directly here (a member is known by one address, so there is no per-pair proxy to cut): run them in"
                + " network namespaces (cluster netns), or cut clients (isolate-client), or kill or pause members"));
        if (why != null) {
            return why;
        }
        String e = s.roleTargetEntry();
        return e == null ? null : "nemesis: '" + e + "': Hazelcast members do not say which leads a CP group here (use"
                + " random, minority, majority, all or node:N)";
    }

    @Override
    public String missing() {
        return null;
    }

    /** The run records the release ({@code hazelcast}) as every library's; the members run the same one. */
    @Override
    public Map<String, String> versions() {
        return Map.of();
    }

    /** Never reached: the recipe inspects the locks itself, in a client agent. */
    @Override
    public Inspection inspect(String connect, List<String> keys) {
        throw new IllegalStateException("Hazelcast's locks are inspected by the recipe in a client agent");
    }
}
