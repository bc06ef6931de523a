package io.lockchaos.nemesis;

import io.lockchaos.cluster.ServerNamespaces;
import io.lockchaos.cluster.ServerNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cuts links between servers with iptables DROP rules inside the receiving server's network namespace ({@code
 * --cluster netns}, or a container's with {@code --partitioner iptables}): a cut from A to
 * B is {@code -A INPUT -s A -j DROP} in B's namespace, so whatever A sends B is lost (SYNs, data, acknowledgements;
 * established connections too, since no rule accepts them first), while B's packets still reach A. Packet loss is the
 * same rule with the {@code statistic} match; a bandwidth limit is a {@code tbf} queue on the server's link (this
 * kernel has no netem, so no added latency). Every rule carries the fault's tag as a comment; heal flushes the chains
 * and removes the queues of every namespace, which hold nothing else (on hosts reached over SSH, only the rules
 * with this run's comments: see {@link ServerNamespaces#clearRules}).
 */
public final class IptablesPartitioner implements Partitioner {
    private final ServerNamespaces netns;
    /** The undo commands of each fault, as (server id, command) pairs. */
    private final Map<String, List<Undo>> undo = new ConcurrentHashMap<>();

    private record Undo(int node, List<String> command, String gone) {
    }

    public IptablesPartitioner(ServerNamespaces netns) {
        this.netns = netns;
    }

    @Override
    public void cutOneWay(ServerNode from, ServerNode to, String tag) throws IOException {
        List<String> rule = List.of("INPUT", "-s", netns.address(from.id()), "-m", "comment", "--comment",
                netns.ruleComment(tag), "-j", "DROP");
        apply(to.id(), rule, tag);
    }

    /** Drops each packet {@code to} receives from its peers with probability {@code percent}/100. */
    public void loss(ServerNode to, List<ServerNode> peers, long percent, String tag) throws IOException {
        String p = String.format(Locale.ROOT, "%.4f", Math.max(0, Math.min(100, percent)) / 100.0);
        for (ServerNode from : peers) {
            if (from.id() != to.id()) {
                apply(to.id(), List.of("INPUT", "-s", netns.address(from.id()), "-m", "statistic", "--mode", "random",
                        "--probability", p, "-m", "comment", "--comment", netns.ruleComment(tag), "-j", "DROP"), tag);
            }
        }
    }

    /** Limits what server {@code n} sends (to peers and clients alike) to {@code kbit} kbit/s with a tbf queue. */
    public void rateLimit(ServerNode n, long kbit, String tag) throws IOException {
        netns.exec(n.id(), List.of("tc", "qdisc", "add", "dev", "eth0", "root", "tbf", "rate", Math.max(8, kbit)
                + "kbit", "burst", "32kbit", "latency", "400ms"));
        undo.computeIfAbsent(tag, t -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(new Undo(n.id(), List.of("tc", "qdisc", "del", "dev", "eth0", "root"), ""));
    }

    private void apply(int node, List<String> rule, String tag) throws IOException {
        List<String> add = new ArrayList<>(List.of("iptables", "-w", "5", "-A"));
        add.addAll(rule);
        netns.exec(node, add);
        List<String> del = new ArrayList<>(List.of("iptables", "-w", "5", "-D"));
        del.addAll(rule);
        undo.computeIfAbsent(tag, t -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(new Undo(node, del, "matching rule"));
    }

    @Override
    public void remove(String tag) throws IOException {
        List<Undo> steps = undo.remove(tag);
        if (steps == null) {
            return;
        }
        IOException first = null;
        for (Undo u : steps) {
            try {
                netns.exec(u.node(), u.command());
            } catch (IOException e) {
                if (!String.valueOf(e.getMessage()).contains(u.gone()) && first == null) {
                    first = e; // the rule may still be in force: the stop must not be recorded as done
                }
            } catch (RuntimeException e) {
                // a server that cannot be entered (a killed container has no process to enter): the others still go
                first = first == null ? new IOException("server " + u.node() + ": " + e.getMessage(), e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void heal() throws IOException {
        undo.clear();
        IOException first = null;
        for (int id = 1; id <= netns.size(); id++) {
            // every server is healed even when one cannot be (a killed container): the first failure is thrown after
            try {
                netns.clearRules(id);
            } catch (IOException | RuntimeException e) {
                first = first == null ? new IOException("server " + id + ": " + e.getMessage(), e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The rules in force in server {@code id}'s namespace, as iptables -S prints them (for tests and reports). */
    public List<String> rules(int id) throws IOException {
        return netns.exec(id, List.of("iptables", "-w", "5", "-S", "INPUT")).lines()
                .filter(l -> l.startsWith("-A")).toList();
    }
}
