package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.Proxy;
import eu.rekawek.toxiproxy.ToxiproxyClient;
import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.cluster.ServerNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The run's proxies, all driven through the Toxiproxy HTTP API: one proxy in front of every server for each client
 * (so one client can be cut off alone) and, when the ensemble is to be partitioned, one per directed pair of servers
 * for the quorum and the election port (each server reaches its peers only through its own proxies). Proxies are made
 * when first needed. A cut is a {@code timeout} toxic of 0 ms: what is sent is silently lost, as in a real partition (no
 * refusal, no reset); when the toxic is removed Toxiproxy closes the connections it held, and clients reconnect.
 * Where proxies listen and how each side reaches them is the backend's {@link ProxyPlacement}: loopback for the
 * embedded server, published and aliased ports for a container.
 * Thread-safe.
 */
public final class ProxyNetwork implements PeerRouting, Partitioner {
    private final ToxiproxyClient api;
    private final ProxyPlacement placement;
    private final Map<String, Proxy> proxies = new ConcurrentHashMap<>();
    /** The toxics each fault added, as (proxy, toxic) pairs, so ending it touches only those. */
    private final Map<String, List<String[]>> added = new ConcurrentHashMap<>();

    /**
     * @param api the Toxiproxy API
     * @param host the loopback address proxies listen on (and servers are reached at)
     */
    public ProxyNetwork(ToxiproxyClient api, String host) {
        this(api, ProxyPlacement.loopback(host));
    }

    /**
     * @param api the Toxiproxy API
     * @param placement where proxies listen and how they are reached, see {@link ToxiproxyBackend#placement()}
     */
    public ProxyNetwork(ToxiproxyClient api, ProxyPlacement placement) {
        this.api = api;
        this.placement = placement;
    }

    public ToxiproxyClient api() {
        return api;
    }

    private Proxy proxy(String name, String upstream, boolean forClients) {
        return proxies.computeIfAbsent(name, n -> {
            try {
                Proxy existing = api.getProxyOrNull(n);
                if (existing != null) {
                    existing.delete(); // a stale proxy of an earlier run on an external server
                }
                return api.createProxy(n, placement.listen(n, forClients), upstream);
            } catch (IOException e) {
                throw new UncheckedIOException("creating proxy " + n + " -> " + upstream, e);
            }
        });
    }

    static String clientProxy(int worker, ServerNode n) {
        return "client-" + worker + "-n" + n.id();
    }

    static String dataProxy(int worker, ServerNode n) {
        return "data-" + worker + "-n" + n.id();
    }

    /** The proxy through which the protected data's server {@code from}, a replica, reaches its primary {@code to}. */
    static String replicationProxy(ServerNode from, ServerNode to) {
        return "replication-" + from.id() + "-" + to.id();
    }

    static String peerProxy(String port, ServerNode from, ServerNode to) {
        return "peer-" + port + "-" + from.id() + "-" + to.id();
    }

    /** The connect string worker {@code worker} uses: its own proxy to each server. */
    public String clientConnectString(int worker, List<ServerNode> nodes) {
        return viaProxies(nodes, n -> clientProxy(worker, n));
    }

    /** {@code host:port} of the client-side proxy (named by {@code name}) in front of each node, comma-separated. */
    private String viaProxies(List<ServerNode> nodes, Function<ServerNode, String> name) {
        StringBuilder s = new StringBuilder();
        for (ServerNode n : nodes) {
            InetSocketAddress a = placement.clientSide(proxy(name.apply(n),
                    placement.upstream(n, ProxyPlacement.Target.CLIENT), true).getListen());
            s.append(s.length() == 0 ? "" : ",").append(a.getHostString()).append(':').append(a.getPort());
        }
        return s.toString();
    }

    /**
     * The address ({@code host:port}, several comma-separated) worker {@code worker} reaches the protected data's
     * servers at: its own proxy to each, apart from its proxies to the lock's servers, so that the data path has
     * faults of its own.
     */
    public String dataAddress(int worker, List<ServerNode> nodes) {
        return viaProxies(nodes, n -> dataProxy(worker, n));
    }

    @Override
    public InetSocketAddress quorum(ServerNode from, ServerNode to) {
        return placement.serverSide(proxy(peerProxy("quorum", from, to),
                placement.upstream(to, ProxyPlacement.Target.QUORUM), false).getListen());
    }

    @Override
    public InetSocketAddress election(ServerNode from, ServerNode to) {
        return placement.serverSide(proxy(peerProxy("election", from, to),
                placement.upstream(to, ProxyPlacement.Target.ELECTION), false).getListen());
    }

    /** The names of worker {@code worker}'s proxies that exist. */
    List<String> clientProxies(int worker, List<ServerNode> nodes) {
        return nodes.stream().map(n -> clientProxy(worker, n)).filter(proxies::containsKey).toList();
    }

    /** Every client proxy to server {@code n}. */
    List<String> clientProxiesTo(ServerNode n) {
        return proxies.keySet().stream().filter(p -> p.startsWith("client-") && p.endsWith("-n" + n.id())).toList();
    }

    /** Every client proxy. */
    List<String> allClientProxies() {
        return proxies.keySet().stream().filter(p -> p.startsWith("client-")).toList();
    }

    /** Every proxy to the protected data's servers. */
    List<String> allDataProxies() {
        return proxies.keySet().stream().filter(p -> p.startsWith("data-")).toList();
    }

    /** Worker {@code worker}'s proxies to the protected data's servers. */
    List<String> dataProxies(int worker) {
        return proxies.keySet().stream().filter(p -> p.startsWith("data-" + worker + "-n")).toList();
    }

    /**
     * Where the protected data's replica reaches its primary: through a proxy of its own, so that isolating either
     * ({@code isolate data:N}) stops the replication.
     */
    public PeerRouting dataReplication() {
        return new PeerRouting() {
            @Override
            public InetSocketAddress quorum(ServerNode from, ServerNode to) {
                return placement.serverSide(proxy(replicationProxy(from, to),
                        placement.upstream(to, ProxyPlacement.Target.QUORUM), false).getListen());
            }

            @Override
            public InetSocketAddress election(ServerNode from, ServerNode to) {
                throw new UnsupportedOperationException("the protected data's servers hold no election");
            }
        };
    }

    /** The workers' proxies to the protected data's server {@code n}. */
    List<String> dataProxiesTo(ServerNode n) {
        return proxies.keySet().stream().filter(p -> p.startsWith("data-") && p.endsWith("-n" + n.id())).toList();
    }

    /**
     * The replication proxies of the protected data's server {@code n}, each with whether {@code n} opened it (is the
     * replica): what {@code n} sends then goes upstream, else downstream.
     */
    Map<String, Boolean> replicationProxiesOf(ServerNode n) {
        Map<String, Boolean> out = new java.util.TreeMap<>();
        for (String p : proxies.keySet()) {
            String[] ids = p.startsWith("replication-") ? p.substring("replication-".length()).split("-") : null;
            if (ids != null && (ids[0].equals(Integer.toString(n.id())) || ids[1].equals(Integer.toString(n.id())))) {
                out.put(p, ids[0].equals(Integer.toString(n.id())));
            }
        }
        return out;
    }

    /** Every peer proxy. */
    List<String> allPeerProxies() {
        return proxies.keySet().stream().filter(p -> p.startsWith("peer-")).toList();
    }

    /**
     * Stops what {@code from} sends to {@code to} (both ports), whichever of the two opened the connection: the
     * upstream of {@code from}'s proxies to {@code to} and the downstream of {@code to}'s proxies to {@code from}.
     */
    @Override
    public void cutOneWay(ServerNode from, ServerNode to, String tag) throws IOException {
        for (String port : List.of("quorum", "election")) {
            blackhole(peerProxy(port, from, to), ToxicDirection.UPSTREAM, tag);
            blackhole(peerProxy(port, to, from), ToxicDirection.DOWNSTREAM, tag);
        }
    }

    /** Holds all data through {@code proxy} in one direction until {@link #remove} of {@code tag}. */
    void blackhole(String proxy, ToxicDirection direction, String tag) throws IOException {
        Proxy p = proxies.get(proxy);
        if (p != null) {
            p.toxics().timeout(toxicName(tag, direction), direction, 0);
            added(tag, proxy, direction);
        }
    }

    /** Notes that the fault {@code tag} added its toxic in {@code direction} to {@code proxy}. */
    void added(String tag, String proxy, ToxicDirection direction) {
        added.computeIfAbsent(tag, t -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(new String[] {proxy, toxicName(tag, direction)});
    }

    /** Both directions. */
    void blackhole(String proxy, String tag) throws IOException {
        blackhole(proxy, ToxicDirection.UPSTREAM, tag);
        blackhole(proxy, ToxicDirection.DOWNSTREAM, tag);
    }

    /** The proxy, for adding other toxics. */
    Proxy get(String proxy) {
        return proxies.get(proxy);
    }

    static String toxicName(String tag, ToxicDirection d) {
        return tag + "-" + d.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Removes every toxic named by {@code tag} from every proxy. */
    @Override
    public void remove(String tag) throws IOException {
        List<String[]> toxics = added.remove(tag);
        if (toxics == null) {
            return;
        }
        for (String[] t : toxics) {
            try {
                proxies.get(t[0]).toxics().get(t[1]).remove();
            } catch (IOException e) {
                String m = String.valueOf(e.getMessage());
                if (!m.contains("404") && !m.toLowerCase(java.util.Locale.ROOT).contains("not found")) {
                    throw e; // the toxic may still be in force: the stop must not be recorded as done
                }
            }
        }
    }

    /** Removes every toxic and enables every proxy. */
    @Override
    public void heal() throws IOException {
        added.clear();
        api.reset();
    }
}
