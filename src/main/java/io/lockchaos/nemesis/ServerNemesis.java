package io.lockchaos.nemesis;

import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.ZkNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** kill -9 and restart, SIGSTOP and SIGCONT of servers; needs a cluster that is {@link Killable} / {@link Pausable}. */
final class ServerNemesis implements Nemesis {
    private final List<ZkNode> killed = new ArrayList<>();
    private final List<ZkNode> paused = new ArrayList<>();

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.KILL, FaultKind.PAUSE);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        boolean kill = fault.kind() == FaultKind.KILL;
        if (kill && !(ctx.cluster() instanceof Killable) || !kill && !(ctx.cluster() instanceof Pausable)) {
            throw new IllegalStateException("this ensemble cannot " + (kill ? "kill" : "pause") + " servers");
        }
        List<ZkNode> targets = ctx.servers(fault.target());
        List<Integer> ids = targets.stream().map(ZkNode::id).toList();
        for (ZkNode n : targets) {
            if (kill) {
                ((Killable) ctx.cluster()).kill(n);
                killed.add(n);
            } else {
                ((Pausable) ctx.cluster()).pause(n);
                paused.add(n);
            }
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("nodes", ids);
        return new Started(value, () -> {
            end(ctx, targets, kill);
            return value;
        });
    }

    private void end(NemesisContext ctx, List<ZkNode> targets, boolean kill) throws Exception {
        for (ZkNode n : targets) {
            if (kill && killed.remove(n)) {
                ((Killable) ctx.cluster()).restart(n);
            } else if (!kill && paused.remove(n)) {
                ((Pausable) ctx.cluster()).resume(n);
            }
        }
    }

    @Override
    public void heal(NemesisContext ctx) throws Exception {
        end(ctx, List.copyOf(paused), false);
        end(ctx, List.copyOf(killed), true);
    }
}
