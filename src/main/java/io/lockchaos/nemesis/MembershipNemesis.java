package io.lockchaos.nemesis;

import io.lockchaos.cluster.LocalEnsemble;
import io.lockchaos.cluster.Membership;
import io.lockchaos.cluster.ZkNode;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Membership changes by ZooKeeper's dynamic reconfiguration: {@code remove-member} takes a server out of the voting
 * members (the leader too: it steps down and the rest elect another) and, when the fault ends, adds it back. Each op
 * records the members and the configuration version the change produced, so the history shows the ensemble's
 * configurations in order.
 */
final class MembershipNemesis implements Nemesis {
    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.REMOVE_MEMBER);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        if (!(ctx.cluster() instanceof LocalEnsemble)) {
            throw new IllegalStateException("membership changes need ZooKeeper servers this machine runs");
        }
        List<ZkNode> targets = ctx.servers(fault.target());
        if (targets.size() != 1) {
            throw new IllegalStateException("remove-member takes one server, " + fault.target() + " names "
                    + targets.size());
        }
        ZkNode n = targets.get(0);
        int timeout = (int) ctx.sessionTimeoutMillis();
        // asked through the others: the server removed closes its connections (the leader steps down), and an
        // answer lost with them would leave the change in doubt
        String others = others(ctx, n);
        // marked before the change: a later fault's follower must not be this one either way, and heal adds it back
        ctx.votes(n.id(), false);
        Membership.Config removed = Membership.remove(others, n.myid(), timeout);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("nodes", List.of(n.id()));
        value.put("members", removed.members());
        value.put("config_version", removed.version());
        if (removed.answerLost()) {
            value.put("answer_lost", true); // the change's answer went with the connection; config read after it
        }
        return new Started(value, () -> {
            Membership.Config added = Membership.add(others, n, timeout);
            ctx.votes(n.id(), true);
            Map<String, Object> ended = new LinkedHashMap<>(value);
            ended.put("members", added.members());
            ended.put("config_version", added.version());
            ended.remove("answer_lost");
            if (added.answerLost()) {
                ended.put("answer_lost", true);
            }
            return ended;
        });
    }

    /** The client addresses of every server but {@code n}. */
    private static String others(NemesisContext ctx, ZkNode n) {
        StringBuilder b = new StringBuilder();
        for (ZkNode o : ctx.cluster().nodes()) {
            if (o.id() != n.id()) {
                b.append(b.length() == 0 ? "" : ",").append(o.host()).append(':').append(o.clientPort());
            }
        }
        return b.toString();
    }

    /** Adds back every server whose removal did not end with its fault (an info op may have removed it). */
    @Override
    public void heal(NemesisContext ctx) throws Exception {
        for (ZkNode n : ctx.cluster().nodes()) {
            if (!ctx.nonVoting().contains(n.id())) {
                continue;
            }
            String others = others(ctx, n);
            if (!Membership.members(others, (int) ctx.sessionTimeoutMillis()).contains(n.myid())) {
                Membership.add(others, n, (int) ctx.sessionTimeoutMillis());
            }
            ctx.votes(n.id(), true);
        }
    }
}
