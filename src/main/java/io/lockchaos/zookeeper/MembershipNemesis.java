package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.nemesis.Nemesis;
import io.lockchaos.nemesis.NemesisContext;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Membership changes by ZooKeeper's dynamic reconfiguration: {@code remove-member} takes a server out of the voting
 * members (the leader too: it steps down and the rest elect another) and, when the fault ends, adds it back;
 * {@code add-member} starts servers the ensemble never had and makes them voting members (3 to 5), and takes them
 * out and stops them when the fault ends; {@code replace-member} brings one in and takes the target out in one
 * reconfiguration, and the reverse when the fault ends. Each op records the members (myids) and the configuration
 * version the change produced, so the history shows the ensemble's configurations in order.
 */
final class MembershipNemesis implements Nemesis {
    /**
     * How long a newcomer may take, from its start, to sync with the leader and say it follows: 2.1-5.8 s here on an
     * idle machine, and more than 10 s once in the slow test tier, where the first three servers took 8 s to start.
     */
    private static final long SYNC_WAIT_MILLIS = 30_000;

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.REMOVE_MEMBER, FaultKind.ADD_MEMBER, FaultKind.REPLACE_MEMBER);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        if (!(ctx.cluster() instanceof LocalEnsemble ensemble)) {
            throw new IllegalStateException("membership changes need ZooKeeper servers this machine runs");
        }
        if (fault.kind() == FaultKind.ADD_MEMBER) {
            return add(fault, ctx, ensemble);
        }
        List<ServerNode> targets = ctx.servers(fault.target());
        if (targets.size() != 1) {
            throw new IllegalStateException(fault.kind().wireName() + " takes one server, " + fault.target()
                    + " names " + targets.size());
        }
        ServerNode n = targets.get(0);
        if (ctx.newcomers().started().contains(n)) {
            // a newcomer leaves when its own fault ends; taking it out and back here would leave the two in conflict
            throw new IllegalStateException(fault.kind().wireName() + " takes the ensemble's own servers; "
                    + fault.target() + " is server " + n.id() + ", which joined during the run");
        }
        int timeout = (int) ctx.sessionTimeoutMillis();
        List<ServerNode> fresh = fault.kind() == FaultKind.REPLACE_MEMBER
                ? ctx.newcomers().take(ensemble.spares(), 1) : List.of();
        // asked through the others: the server removed closes its connections (the leader steps down), and an
        // answer lost with them would leave the change in doubt
        String others = addresses(ctx.members(), n);
        long synced = sync(ensemble, ctx, fresh, ctx.members());
        // marked before the change: a later fault's follower must not be this one either way, and heal adds it back
        ctx.votes(n.id(), false);
        Membership.Config changed = Membership.change(others, fresh, List.of(n.myid()), timeout);
        ctx.newcomers().joined(fresh, true);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("nodes", List.of(n.id()));
        if (!fresh.isEmpty()) {
            value.put("added", ids(fresh));
            value.put("sync_ms", synced);
        }
        record(value, changed);
        return new Started(value, () -> {
            // asked through the servers that stay: the newcomer's own connections go with it
            List<ServerNode> staying = new ArrayList<>(ctx.members());
            staying.removeAll(fresh);
            Membership.Config back = Membership.change(addresses(staying, null), List.of(n),
                    fresh.stream().map(ServerNode::myid).toList(), timeout);
            ctx.votes(n.id(), true);
            ctx.newcomers().joined(fresh, false);
            stop(ensemble, ctx, fresh);
            Map<String, Object> ended = new LinkedHashMap<>(value);
            record(ended, back);
            return ended;
        });
    }

    /** Starts {@code count} newcomers and adds them in one change; at the end takes them out and stops them. */
    private static Started add(Fault fault, NemesisContext ctx, LocalEnsemble ensemble) throws Exception {
        int timeout = (int) ctx.sessionTimeoutMillis();
        List<ServerNode> fresh = ctx.newcomers().take(ensemble.spares(), (int) fault.option("count", 1));
        List<ServerNode> members = ctx.members();
        long synced = sync(ensemble, ctx, fresh, members);
        Membership.Config changed = Membership.change(addresses(members, null), fresh, List.of(), timeout);
        ctx.newcomers().joined(fresh, true);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("added", ids(fresh));
        value.put("sync_ms", synced);
        record(value, changed);
        return new Started(value, () -> {
            ctx.newcomers().joined(fresh, false);
            List<ServerNode> staying = ctx.members();
            Membership.Config back = Membership.change(addresses(staying, null), List.of(),
                    fresh.stream().map(ServerNode::myid).toList(), timeout);
            stop(ensemble, ctx, fresh);
            Map<String, Object> ended = new LinkedHashMap<>(value);
            record(ended, back);
            return ended;
        });
    }

    private static void record(Map<String, Object> value, Membership.Config c) {
        value.put("members", c.members());
        value.put("config_version", c.version());
        value.remove("answer_lost");
        if (c.answerLost()) {
            value.put("answer_lost", true); // the change's answer went with the connection; config read after it
        }
    }

    private static List<Integer> ids(List<ServerNode> ns) {
        return ns.stream().map(ServerNode::id).toList();
    }

    /**
     * Starts the newcomers and waits until each says it follows: as ZooKeeper's reconfiguration guide has it, a joiner
     * syncs with the leader as a non-voting follower before the change that makes it vote, so the change never
     * counts on a server that has no data yet. A newcomer that does not follow within {@link #SYNC_WAIT_MILLIS} is
     * stopped and the fault fails (recorded as info); the members are as they were.
     *
     * @return how long the slowest took to follow, in ms
     */
    private static long sync(LocalEnsemble ensemble, NemesisContext ctx, List<ServerNode> fresh, List<ServerNode> members)
            throws IOException, InterruptedException {
        long begun = System.nanoTime();
        for (ServerNode s : fresh) {
            ensemble.startNew(s, members);
        }
        long deadline = begun + SYNC_WAIT_MILLIS * 1_000_000L;
        for (ServerNode s : fresh) {
            while (!FourLetterWords.mode(s, 500).orElse("down").equals("follower")) {
                if (System.nanoTime() > deadline) {
                    stop(ensemble, ctx, fresh);
                    throw new IOException("server " + s.id() + " (myid " + s.myid() + ") did not follow the leader"
                            + " within " + SYNC_WAIT_MILLIS + " ms of its start; see " + s.logFile());
                }
                Thread.sleep(50);
            }
        }
        return (System.nanoTime() - begun) / 1_000_000L;
    }

    /** Stops newcomers that left: each was used once and is not started again. */
    private static void stop(LocalEnsemble ensemble, NemesisContext ctx, List<ServerNode> fresh) {
        for (ServerNode s : fresh) {
            ensemble.kill(s);
            ctx.newcomers().gone(s);
        }
    }

    /** The client addresses of {@code servers} but {@code except} (null: all of them). */
    private static String addresses(List<ServerNode> servers, ServerNode except) {
        StringBuilder b = new StringBuilder();
        for (ServerNode o : servers) {
            if (except == null || o.id() != except.id()) {
                b.append(b.length() == 0 ? "" : ",").append(o.host()).append(':').append(o.clientPort());
            }
        }
        return b.toString();
    }

    /**
     * Makes the members what they were before any change: every server of the ensemble taken out (an info op may
     * have taken it) comes back and every newcomer leaves, in one reconfiguration; then the newcomers stop.
     */
    @Override
    public void heal(NemesisContext ctx) throws Exception {
        if (!(ctx.cluster() instanceof LocalEnsemble ensemble)) {
            return;
        }
        List<ServerNode> back = new ArrayList<>();
        for (ServerNode n : ctx.cluster().nodes()) {
            if (ctx.nonVoting().contains(n.id())) {
                back.add(n);
            }
        }
        List<ServerNode> started = ctx.newcomers().started();
        if (back.isEmpty() && started.isEmpty()) {
            return;
        }
        List<ServerNode> staying = new ArrayList<>();
        for (ServerNode n : ctx.cluster().nodes()) {
            if (!ctx.nonVoting().contains(n.id())) {
                staying.add(n);
            }
        }
        int timeout = (int) ctx.sessionTimeoutMillis();
        String connect = addresses(staying, null);
        List<Integer> now = Membership.members(connect, timeout);
        List<ServerNode> joining = back.stream().filter(n -> !now.contains(n.myid())).toList();
        List<Integer> leaving = started.stream().map(ServerNode::myid).filter(now::contains).toList();
        if (!joining.isEmpty() || !leaving.isEmpty()) {
            try {
                Membership.change(connect, joining, leaving, timeout);
            } catch (IOException e) {
                throw new IOException("restoring the members " + ids(back) + " and removing " + ids(started) + ": "
                        + e.getMessage(), e);
            }
        }
        back.forEach(n -> ctx.votes(n.id(), true));
        stop(ensemble, ctx, started);
    }
}
