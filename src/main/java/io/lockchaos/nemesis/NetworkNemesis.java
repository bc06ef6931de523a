package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.lockchaos.client.ClientHandle;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Network faults: isolating a client (its proxies), isolating a server or partitioning the ensemble (the run's
 * {@link Partitioner}: peer proxies, or iptables in the servers' namespaces, plus the client proxies to an isolated
 * server), and latency, bandwidth and resets on proxies; between servers in namespaces, bandwidth is a tbf queue and
 * packet loss an iptables statistic rule.
 */
final class NetworkNemesis implements Nemesis {
    private int faults;

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.ISOLATE_CLIENT, FaultKind.ISOLATE_SERVER, FaultKind.PARTITION_HALVES,
                FaultKind.PARTITION_RING, FaultKind.PARTITION_BRIDGE, FaultKind.LATENCY, FaultKind.BANDWIDTH,
                FaultKind.RESET, FaultKind.PACKET_LOSS);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        String tag = "lockchaos-" + (++faults);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        try {
            switch (fault.kind()) {
                case ISOLATE_CLIENT -> isolateClient(fault, ctx, tag, value);
                case ISOLATE_SERVER -> isolateServer(fault, ctx, tag, value);
                case PARTITION_HALVES, PARTITION_RING, PARTITION_BRIDGE -> partition(fault, ctx, tag, value);
                default -> traffic(fault, ctx, tag, value);
            }
        } catch (IOException | RuntimeException e) {
            try {
                remove(ctx, tag); // undo what was applied before the failure: the op is info, the fault is not on
            } catch (IOException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
        Map<String, Object> ended = new LinkedHashMap<>(value);
        return new Started(value, () -> {
            remove(ctx, tag);
            return ended;
        });
    }

    /** Undoes fault {@code tag} on the proxies and, where it is something else, the partitioner. */
    private static void remove(NemesisContext ctx, String tag) throws IOException {
        IOException first = null;
        if (ctx.network() != null) {
            try {
                ctx.network().remove(tag);
            } catch (IOException e) {
                first = e; // still undo the partitioner's part: a cut must not outlive its stop
            }
        }
        if (ctx.partitioner() != null && ctx.partitioner() != ctx.network()) {
            ctx.partitioner().remove(tag);
        }
        if (first != null) {
            throw first;
        }
    }

    /** How the servers were cut apart, for the history: "iptables" or "toxiproxy". */
    private static String cutBy(NemesisContext ctx) {
        return ctx.partitioner() instanceof IptablesPartitioner ? "iptables" : "toxiproxy";
    }

    private static Partitioner partitioner(NemesisContext ctx) {
        if (ctx.partitioner() == null) {
            throw new IllegalStateException("no partitioner: this run has neither peer proxies nor namespaces");
        }
        return ctx.partitioner();
    }

    private static IptablesPartitioner iptables(NemesisContext ctx, FaultKind kind) {
        if (!(ctx.partitioner() instanceof IptablesPartitioner p)) {
            throw new IllegalStateException(kind.wireName() + " between servers needs --cluster netns");
        }
        return p;
    }

    private void isolateClient(Fault fault, NemesisContext ctx, String tag, Map<String, Object> value)
            throws IOException {
        if (ctx.network() == null) {
            throw new IllegalStateException("isolating a client needs its proxies");
        }
        List<ServerNode> shuffled = ctx.shuffled(ctx.cluster().nodes());
        List<ServerNode> servers = shuffled.subList(0, (int) Math.min(shuffled.size(), fault.option("servers",
                shuffled.size())));
        // one_way=1: only what the servers send the client is lost, so its requests still reach them and take (a
        // release whose answer is lost; a session the servers see alive while the client hears nothing)
        boolean answersOnly = fault.option("one_way", 0) == 1;
        ClientHandle c;
        if (fault.target().equals("releaser")) {
            c = cutAtRelease(ctx, servers, answersOnly, tag);
        } else {
            c = ctx.client(fault.target());
            for (ServerNode n : servers) {
                cutClient(ctx.network(), ProxyNetwork.clientProxy(c.worker(), n), answersOnly, tag);
            }
        }
        if (answersOnly) {
            value.put("one_way", true);
        }
        value.put("process", c.process());
        value.put("worker", c.worker());
        value.put("session", SessionNemesis.sessionOf(c));
        value.put("servers", servers.stream().map(ServerNode::id).toList());
    }

    /** How long the nemesis waits for a worker to reach its release. */
    private static final long RELEASE_WAIT_MILLIS = 10_000;

    /**
     * Cuts the next worker to start a release off from {@code servers}, in its own thread at its release point, so
     * that the release itself meets the cut (a lock node a release could not delete: the CURATOR-486 family), or
     * with {@code answersOnly} loses the release's answer while the release itself takes.
     */
    private static void cutClient(ProxyNetwork network, String proxy, boolean answersOnly, String tag)
            throws IOException {
        if (answersOnly) {
            network.blackhole(proxy, ToxicDirection.DOWNSTREAM, tag); // what the server sends is the downstream
        } else {
            network.blackhole(proxy, tag);
        }
    }

    private static ClientHandle cutAtRelease(NemesisContext ctx, List<ServerNode> servers, boolean answersOnly,
                                             String tag) throws IOException {
        java.util.concurrent.atomic.AtomicReference<ClientHandle> who = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<IOException> problem =
                new java.util.concurrent.atomic.AtomicReference<>();
        ClientHandle.PauseRequest r = new ClientHandle.PauseRequest(0, h -> {
            who.set(h);
            try {
                for (ServerNode n : servers) {
                    cutClient(ctx.network(), ProxyNetwork.clientProxy(h.worker(), n), answersOnly, tag);
                }
            } catch (IOException e) {
                problem.set(e);
            }
        }, h -> { });
        List<ClientHandle> all = ctx.clients().all();
        boolean reached;
        try {
            for (ClientHandle h : all) {
                h.requestReleasePause(r);
            }
            reached = r.awaitPaused(RELEASE_WAIT_MILLIS);
            for (ClientHandle h : all) {
                h.cancelReleasePause(r);
            }
            if (!reached && !r.claim()) {
                reached = r.awaitPaused(RELEASE_WAIT_MILLIS); // claimed just now by a worker
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a release");
        }
        if (!reached) {
            throw new IllegalStateException("no worker began a release within " + RELEASE_WAIT_MILLIS + " ms");
        }
        if (problem.get() != null) {
            throw problem.get();
        }
        return who.get();
    }

    private void isolateServer(Fault fault, NemesisContext ctx, String tag, Map<String, Object> value)
            throws IOException {
        ServerNode node = ctx.servers(fault.target()).get(0);
        boolean oneWay = fault.option("one_way", 0) == 1;
        if (fault.onDataServers()) {
            isolateDataServer(node, oneWay, ctx.network(), tag);
            value.put("node", node.id());
            value.put("one_way", oneWay);
            value.put("cut_by", "proxies");
            return;
        }
        // newcomers too (membership faults): a leader cut from the others but not from them could keep its quorum
        List<ServerNode> peers = new ArrayList<>(ctx.cluster().nodes());
        peers.addAll(ctx.newcomers().started());
        for (ServerNode peer : peers) {
            if (peer.id() != node.id()) {
                partitioner(ctx).cutOneWay(node, peer, tag);
                if (!oneWay) {
                    partitioner(ctx).cutOneWay(peer, node, tag);
                }
            }
        }
        // peers_only=1: its clients still reach it (a primary cut from its replicas and Sentinels, not its clients)
        boolean peersOnly = fault.option("peers_only", 0) == 1;
        List<String> clientProxies = ctx.network() == null || peersOnly ? List.of()
                : ctx.network().clientProxiesTo(node);
        for (String p : clientProxies) {
            // what the server sends to its clients is its downstream
            ctx.network().blackhole(p, ToxicDirection.DOWNSTREAM, tag);
            if (!oneWay) {
                ctx.network().blackhole(p, ToxicDirection.UPSTREAM, tag);
            }
        }
        value.put("node", node.id());
        value.put("one_way", oneWay);
        if (peersOnly) {
            value.put("peers_only", true);
        }
        value.put("cut_by", cutBy(ctx));
    }

    /**
     * Cuts one of the protected data's servers off from the workers and from its replica or primary: a replica cut
     * from its primary falls behind, and a failover to it then loses what it never received.
     */
    private static void isolateDataServer(ServerNode node, boolean oneWay, ProxyNetwork net, String tag)
            throws IOException {
        if (net == null) {
            throw new IllegalStateException("isolating the protected data's server cuts its proxies: this run has"
                    + " none");
        }
        for (Map.Entry<String, Boolean> p : net.replicationProxiesOf(node).entrySet()) {
            ToxicDirection sent = p.getValue() ? ToxicDirection.UPSTREAM : ToxicDirection.DOWNSTREAM;
            net.blackhole(p.getKey(), sent, tag);
            if (!oneWay) {
                net.blackhole(p.getKey(), sent == ToxicDirection.UPSTREAM ? ToxicDirection.DOWNSTREAM
                        : ToxicDirection.UPSTREAM, tag);
            }
        }
        for (String p : net.dataProxiesTo(node)) {
            net.blackhole(p, ToxicDirection.DOWNSTREAM, tag); // what the server sends its clients
            if (!oneWay) {
                net.blackhole(p, ToxicDirection.UPSTREAM, tag);
            }
        }
    }

    private void partition(Fault fault, NemesisContext ctx, String tag, Map<String, Object> value)
            throws IOException {
        List<ServerNode> order = ctx.shuffled(ctx.cluster().nodes());
        int n = order.size();
        boolean oneWay = fault.option("one_way", 0) == 1;
        List<List<Integer>> cut = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (separated(fault.kind(), i, j, n)) {
                    // the first of the pair is on the smaller side for halves: one-way loses what it sends
                    partitioner(ctx).cutOneWay(order.get(i), order.get(j), tag);
                    if (!oneWay) {
                        partitioner(ctx).cutOneWay(order.get(j), order.get(i), tag);
                    }
                    cut.add(List.of(order.get(i).id(), order.get(j).id()));
                }
            }
        }
        value.put("order", order.stream().map(ServerNode::id).toList());
        value.put("cut", cut);
        value.put("one_way", oneWay);
        value.put("cut_by", cutBy(ctx));
    }

    /** Whether servers at positions i < j of the shuffled order are cut apart by this shape. */
    static boolean separated(FaultKind shape, int i, int j, int n) {
        return switch (shape) {
            case PARTITION_HALVES -> i < n / 2 && j >= n / 2;
            case PARTITION_RING -> j - i != 1 && !(i == 0 && j == n - 1);
            case PARTITION_BRIDGE -> i < (n - 1) / 2 && j > (n - 1) / 2;
            default -> false;
        };
    }

    private void traffic(Fault fault, NemesisContext ctx, String tag, Map<String, Object> value) throws IOException {
        boolean data = fault.target().equals("data");
        boolean servers = !fault.target().equals("clients") && !data;
        if (servers && ctx.partitioner() instanceof IptablesPartitioner) {
            betweenServers(fault, ctx, tag, value);
        } else if (fault.kind() == FaultKind.PACKET_LOSS) {
            throw new IllegalStateException("packet-loss drops packets between servers: it needs the target servers"
                    + " and --cluster netns (proxies carry TCP streams, not packets)");
        }
        List<String> proxies = new ArrayList<>();
        if (ctx.network() != null && !fault.target().equals("servers") && !data) {
            proxies.addAll(ctx.network().allClientProxies());
        }
        if (ctx.network() != null && data) {
            proxies.addAll(ctx.network().allDataProxies());
        }
        if (ctx.network() != null && servers && !(ctx.partitioner() instanceof IptablesPartitioner)) {
            proxies.addAll(ctx.network().allPeerProxies());
        }
        if (fault.kind() == FaultKind.PACKET_LOSS) {
            value.putAll(fault.options());
            return; // packet loss is for servers only; their rules are in
        }
        String name = ProxyNetwork.toxicName(tag, ToxicDirection.DOWNSTREAM);
        String up = ProxyNetwork.toxicName(tag, ToxicDirection.UPSTREAM);
        for (String p : proxies) {
            Proxy proxy = ctx.network().get(p);
            switch (fault.kind()) {
                case LATENCY -> {
                    proxy.toxics().latency(name, ToxicDirection.DOWNSTREAM, fault.option("latency_ms", 100))
                            .setJitter(fault.option("jitter_ms", 0));
                    ctx.network().added(tag, p, ToxicDirection.DOWNSTREAM);
                    if (data) {
                        // a write held in flight on its way to the database lands after the lock has moved on
                        proxy.toxics().latency(up, ToxicDirection.UPSTREAM, fault.option("latency_ms", 100))
                                .setJitter(fault.option("jitter_ms", 0));
                        ctx.network().added(tag, p, ToxicDirection.UPSTREAM);
                    }
                }
                case BANDWIDTH -> {
                    proxy.toxics().bandwidth(name, ToxicDirection.DOWNSTREAM, fault.option("rate_kbs", 10));
                    proxy.toxics().bandwidth(up, ToxicDirection.UPSTREAM, fault.option("rate_kbs", 10));
                    ctx.network().added(tag, p, ToxicDirection.DOWNSTREAM);
                    ctx.network().added(tag, p, ToxicDirection.UPSTREAM);
                }
                default -> {
                    proxy.toxics().resetPeer(name, ToxicDirection.DOWNSTREAM, fault.option("timeout_ms", 1000));
                    ctx.network().added(tag, p, ToxicDirection.DOWNSTREAM);
                }
            }
        }
        value.put("proxies", proxies.size());
        value.putAll(fault.options());
    }

    /**
     * Traffic faults between servers in namespaces, where there are no peer proxies: a tbf queue on each server's link
     * for bandwidth, iptables statistic rules for packet loss. Latency and resets would need netem or a proxy.
     */
    private void betweenServers(Fault fault, NemesisContext ctx, String tag, Map<String, Object> value)
            throws IOException {
        IptablesPartitioner p = iptables(ctx, fault.kind());
        List<ServerNode> nodes = ctx.cluster().nodes();
        switch (fault.kind()) {
            case BANDWIDTH -> {
                for (ServerNode n : nodes) {
                    p.rateLimit(n, fault.option("rate_kbs", 10) * 8, tag);
                }
            }
            case PACKET_LOSS -> {
                for (ServerNode n : nodes) {
                    p.loss(n, nodes, fault.option("percent", 20), tag);
                }
            }
            default -> throw new IllegalStateException(fault.kind().wireName() + " between servers in namespaces"
                    + " needs netem, which this kernel lacks (use --cluster local, whose peer proxies add it)");
        }
        value.put("servers", nodes.size());
    }

    @Override
    public void heal(NemesisContext ctx) throws IOException {
        IOException first = null;
        if (ctx.network() != null) {
            try {
                ctx.network().heal();
            } catch (IOException e) {
                first = e;
            }
        }
        if (ctx.partitioner() != null && ctx.partitioner() != ctx.network()) {
            ctx.partitioner().heal();
        }
        if (first != null) {
            throw first;
        }
    }
}
