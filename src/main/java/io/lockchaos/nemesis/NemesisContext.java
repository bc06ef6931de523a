package io.lockchaos.nemesis;

import io.lockchaos.client.ClientHandle;
import io.lockchaos.client.ClientRegistry;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.Roles;
import io.lockchaos.cluster.ServerNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the nemesis acts on.
 *
 * @param cluster the ensemble (kill and pause need {@link io.lockchaos.cluster.Killable} / {@link
 *     io.lockchaos.cluster.Pausable})
 * @param clients the workers' handles
 * @param network the proxies, or null when the run has none
 * @param partitioner what cuts servers apart: the proxies, iptables in the servers' namespaces, or null
 * @param sessionTimeoutMillis the clients' session timeout
 * @param random picks targets (seeded from the run's seed)
 * @param nonVoting the servers of the ensemble a membership fault has taken out of the voting members, by id
 * @param newcomers the servers the ensemble never had that membership faults brought in
 * @param data the servers of the protected data in a database ({@code protected_data}), or null
 */
public record NemesisContext(Cluster cluster, ClientRegistry clients, ProxyNetwork network, Partitioner partitioner,
                             long sessionTimeoutMillis, SplittableRandom random, java.util.Set<Integer> nonVoting,
                             Newcomers newcomers, Cluster data) {
    /** A context of a run: no server is out of the voting members yet. */
    public NemesisContext(Cluster cluster, ClientRegistry clients, ProxyNetwork network, Partitioner partitioner,
            long sessionTimeoutMillis, SplittableRandom random) {
        this(cluster, clients, network, partitioner, sessionTimeoutMillis, random,
                java.util.concurrent.ConcurrentHashMap.newKeySet(), new Newcomers(), null);
    }

    /** This context, with the protected data's servers, which {@code data} and {@code data:N} name. */
    public NemesisContext withData(Cluster dataServers) {
        return new NemesisContext(cluster, clients, network, partitioner, sessionTimeoutMillis, random, nonVoting,
                newcomers, dataServers);
    }

    /** The servers a target is among: the protected data's for {@code data} and {@code data:N}, else the lock's. */
    Cluster clusterOf(String target) {
        if (!target.equals("data") && !target.startsWith("data:")) {
            return cluster;
        }
        if (data == null) {
            throw new IllegalStateException("no protected data in a database in this run (protected_data)");
        }
        return data;
    }

    /** A context whose proxies also cut the servers apart (or that has neither). */
    public NemesisContext(Cluster cluster, ClientRegistry clients, ProxyNetwork network, long sessionTimeoutMillis,
            SplittableRandom random) {
        this(cluster, clients, network, network, sessionTimeoutMillis, random);
    }

    /**
     * The client a target names: holder, waiter, next-waiter (the one waiting longest, next in line for a FIFO lock),
     * random or process:N.
     */
    ClientHandle client(String target) {
        if (target.startsWith("process:")) {
            int p = Integer.parseInt(target.substring("process:".length()));
            return clients.byProcess(p).orElseGet(() -> {
                if (p < clients.all().size()) {
                    return clients.worker(p); // the worker that began as process p, under its current process
                }
                throw new IllegalStateException("no worker runs as process " + p);
            });
        }
        return switch (target) {
            case "holder" -> await(ClientHandle.Phase.HOLDING, "holds a lock", false);
            case "waiter" -> await(ClientHandle.Phase.WAITING, "waits for a lock", false);
            case "next-waiter" -> await(ClientHandle.Phase.WAITING, "waits for a lock", true);
            default -> clients.worker(random.nextInt(clients.all().size()));
        };
    }

    /**
     * How long a fault waits for a client to be in the phase its target names: long enough for a loaded machine's
     * first grant (a compare run on two busy cores once had no holder 3 s after its fault was due), short of a run.
     */
    private static final long TARGET_WAIT_MILLIS = 10_000;

    /**
     * A client in {@code phase} (a random one, or the one there longest), waiting for one to get there: short holds
     * make "the holder" fleeting.
     */
    private ClientHandle await(ClientHandle.Phase phase, String what, boolean longest) {
        long deadline = System.nanoTime() + TARGET_WAIT_MILLIS * 1_000_000L;
        while (true) {
            java.util.Optional<ClientHandle> h = longest ? clients.longestIn(phase) : clients.anyIn(phase, random);
            if (h.isPresent()) {
                return h.get();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no client " + what + " within " + TARGET_WAIT_MILLIS + " ms");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a client that " + what);
            }
        }
    }

    /**
     * The servers a target names: leader, follower, random, minority, majority, all or node:N; data (every server of
     * the protected data) or data:N.
     */
    public List<ServerNode> servers(String target) {
        if (target.equals("data")) {
            return clusterOf(target).nodes();
        }
        List<ServerNode> nodes = clusterOf(target).nodes();
        if (target.startsWith("node:") || target.startsWith("data:")) {
            int id = Integer.parseInt(target.substring(target.indexOf(':') + 1));
            return List.of(nodes.stream().filter(n -> n.id() == id).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no server " + id)));
        }
        List<ServerNode> leaders = new ArrayList<>();
        List<ServerNode> followers = new ArrayList<>();
        // only roles need asking the servers (a second each at worst; Redis instances have no roles and never answer)
        boolean roles = target.equals("leader") || target.equals("follower");
        List<ServerNode> asked = new ArrayList<>(nodes);
        asked.addAll(newcomers.joined()); // a newcomer may lead: replacing the leader elects among the rest and it
        for (ServerNode n : roles ? asked : List.<ServerNode>of()) {
            if (nonVoting.contains(n.id())) {
                continue; // removed from the members, it may still say "follower" (it follows without a vote)
            }
            String mode = cluster instanceof Roles r ? r.role(n, 1000) : "down";
            if (mode.equals("leader") || mode.equals("standalone")) {
                leaders.add(n);
            } else if (mode.equals("follower")) {
                followers.add(n);
            }
        }
        List<ServerNode> shuffled = shuffled(nodes);
        return switch (target) {
            case "leader" -> {
                if (leaders.isEmpty()) {
                    throw new IllegalStateException("no server leads right now");
                }
                yield List.of(leaders.get(0));
            }
            case "follower" -> {
                if (followers.isEmpty()) {
                    throw new IllegalStateException("no server follows right now");
                }
                yield List.of(followers.get(random.nextInt(followers.size())));
            }
            case "minority" -> shuffled.subList(0, Math.max(1, (nodes.size() - 1) / 2));
            case "majority" -> shuffled.subList(0, nodes.size() / 2 + 1);
            case "all" -> nodes;
            default -> List.of(shuffled.get(0));
        };
    }

    /**
     * Marks server {@code id} as out of the voting members or back in ({@code votes}): a server a membership fault
     * removed may still say "follower", and no leader or follower target may name it.
     */
    public void votes(int id, boolean votes) {
        if (votes) {
            nonVoting.remove(id);
        } else {
            nonVoting.add(id);
        }
    }

    /** The voting members now: the ensemble's servers still in it and the newcomers that joined. */
    public List<ServerNode> members() {
        List<ServerNode> out = new ArrayList<>();
        for (ServerNode n : cluster.nodes()) {
            if (!nonVoting.contains(n.id())) {
                out.add(n);
            }
        }
        out.addAll(newcomers.joined());
        return out;
    }

    /** The servers in a random order. */
    List<ServerNode> shuffled(List<ServerNode> nodes) {
        List<ServerNode> s = new ArrayList<>(nodes);
        for (int i = s.size() - 1; i > 0; i--) {
            java.util.Collections.swap(s, i, random.nextInt(i + 1));
        }
        return s;
    }
}
