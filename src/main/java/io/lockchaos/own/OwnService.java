package io.lockchaos.own;

import io.lockchaos.agent.AgentLauncher;
import io.lockchaos.agent.AgentWire;
import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.client.UserLock;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.cluster.Netns;
import io.lockchaos.cluster.PortReservations;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servers a user's lock brings ({@code Backend.OWN}): the run asks the lock's factory, in a JVM on the lock's
 * classpath, for each server's command ({@code io.lockchaos.api.LockServers}) once it has placed them, and runs them as
 * {@link OwnServers}. Kills, pauses and cuts of clients work as on every service; cuts between servers need {@code
 * cluster netns}; what is not theirs to take (a session expiry, a server clock, a leader) is refused by name.
 */
public final class OwnService implements LockService {
    @Override
    public Backend backend() {
        return Backend.OWN;
    }

    @Override
    public String name() {
        return "the lock's own servers";
    }

    @Override
    public String servers() {
        return "lock's own server(s)";
    }

    /** A lock on its own servers is always a user's, whose clients open in client agents. */
    @Override
    public LockFactory factory(LockRecipe recipe) {
        throw new IllegalArgumentException(recipe.wireName() + " is not a recipe on OWN: only a lock of the user's own"
                + " brings its own servers");
    }

    @Override
    public boolean takesExistingServers() {
        return false;
    }

    @Override
    public Cluster start(ServerPlan plan) throws IOException {
        UserLock lock = plan.recipe().user();
        if (lock == null) {
            throw new IllegalArgumentException(plan.recipe().wireName() + " brings no servers of its own");
        }
        Netns ns = plan.namespaces() ? Netns.create(plan.nodes()) : null;
        try {
            List<ServerNode> nodes = new ArrayList<>();
            for (int id = 1; id <= plan.nodes(); id++) {
                Path dir = plan.folder().toAbsolutePath().resolve("server-" + id);
                Files.createDirectories(dir);
                nodes.add(new ServerNode(id, ns == null ? "127.0.0.1" : ns.address(id), PortReservations.freePort(),
                        0, 0, dir, dir.resolve("server.log")));
            }
            Path log = plan.folder().resolve("servers-commands.log");
            Map<String, Object> said = AgentLauncher.describe(lock.classpath(), lock.className(),
                    slots(nodes, lock.classpath(), plan.text("lock_settings")), log);
            Files.deleteIfExists(log); // kept when the JVM said nothing: the error names it
            if (said.get("error") != null) {
                throw new IllegalArgumentException(String.valueOf(said.get("error")));
            }
            List<List<String>> commands = new ArrayList<>();
            for (Object c : (List<?>) said.get("commands")) {
                commands.add(((List<?>) c).stream().map(String::valueOf).toList());
            }
            return new OwnServers(String.valueOf(said.get("servers")), nodes, commands, ns);
        } catch (IOException | RuntimeException e) {
            if (ns != null) {
                ns.close();
            }
            throw e;
        }
    }

    /** Where each server runs, on the wire the factory's agent reads ({@code {"slots": [...]}}). */
    static String slots(List<ServerNode> nodes, List<String> classpath, String settings) {
        // the run has read the settings already (a JSON object of texts, numbers and booleans): the agent's wire
        // reads them again, as every client's settings reach their agents
        Object given = settings == null || settings.isBlank() || settings.equals("null") ? Map.of()
                : AgentWire.decode(settings);
        List<String> peers = nodes.stream().map(ServerNode::clientAddress).toList();
        List<String> cp = classpath.stream().map(e -> Path.of(e).toAbsolutePath().toString()).toList();
        List<Object> slots = new ArrayList<>();
        for (ServerNode n : nodes) {
            Map<String, Object> slot = new LinkedHashMap<>();
            slot.put("id", n.id());
            slot.put("host", n.host());
            slot.put("port", n.clientPort());
            slot.put("folder", n.dataDir().toString());
            slot.put("peers", peers);
            slot.put("classpath", cp);
            slot.put("settings", given);
            slots.add(slot);
        }
        return AgentWire.encode(Map.of("slots", slots));
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

    /** No column on the Faults page: what a lock's own servers take depends on nothing lockchaos knows of them. */
    @Override
    public Map<String, List<Map<String, String>>> setUps() {
        return Map.of();
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
        if (s.cluster() != ClusterKind.LOCAL && !s.namespaces()) {
            return "cluster: a lock's own servers run on this machine (cluster local, or netns), not "
                    + s.cluster().wireName();
        }
        String why = s.childServersFaultProblem("a lock's own servers have no session lockchaos can expire: cut or"
                + " pause the client (isolate-client, pause-client) instead", "the clocks of a lock's own servers are"
                + " not moved: move the clients' (clock faults on clients), or pause or kill servers", "a lock's own"
                + " servers talk to each other directly (at the addresses their command was given): run them in"
                + " network namespaces (cluster netns) to cut them apart, or cut clients (isolate-client), or kill or"
                + " pause servers");
        if (why != null) {
            return why;
        }
        String e = s.roleTargetEntry();
        return e == null ? null : "nemesis: '" + e + "': a lock's own servers do not say which of them leads (use"
                + " random, minority, majority, all or node:N)";
    }

    @Override
    public String missing() {
        return null;
    }

    @Override
    public Map<String, String> versions() {
        return Map.of();
    }

    /** Never what decides: the lock's factory inspects its own servers, in a client agent. */
    @Override
    public Inspection inspect(String connect, List<String> keys) {
        throw new IllegalStateException("the lock's own servers are inspected only by its factory's inspect(), which"
                + " returned null");
    }
}
