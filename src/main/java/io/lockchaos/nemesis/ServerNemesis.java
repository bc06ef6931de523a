package io.lockchaos.nemesis;

import io.lockchaos.cluster.Killable;
import io.lockchaos.cluster.Pausable;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** kill -9 and restart, SIGSTOP and SIGCONT of servers; needs a cluster that is {@link Killable} / {@link Pausable}. */
final class ServerNemesis implements Nemesis {
    private final Set<ServerNode> killed = new java.util.LinkedHashSet<>();
    private final Set<ServerNode> paused = new java.util.LinkedHashSet<>();

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
        List<ServerNode> targets = ctx.servers(fault.target()).stream()
                .filter(n -> !killed.contains(n) && !paused.contains(n)).toList();
        if (targets.isEmpty()) {
            throw new IllegalStateException("the servers " + fault.target() + " names are already down or paused");
        }
        List<Integer> ids = targets.stream().map(ServerNode::id).toList();
        List<ServerNode> done = new ArrayList<>();
        try {
            for (ServerNode n : targets) {
                if (kill) {
                    ((Killable) ctx.cluster()).kill(n);
                    killed.add(n);
                } else {
                    ((Pausable) ctx.cluster()).pause(n);
                    paused.add(n);
                }
                done.add(n);
            }
        } catch (RuntimeException e) {
            try {
                end(ctx, done, kill); // the op is info: do not leave half of it in force
            } catch (Exception undo) {
                e.addSuppressed(undo);
            }
            throw e;
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

    /** Restarts or resumes each server, every one even when some fail; throws the first failure after. */
    private void end(NemesisContext ctx, List<ServerNode> targets, boolean kill) throws Exception {
        Exception first = null;
        for (ServerNode n : targets) {
            try {
                if (kill && killed.remove(n)) {
                    ((Killable) ctx.cluster()).restart(n);
                } else if (!kill && paused.remove(n)) {
                    ((Pausable) ctx.cluster()).resume(n);
                }
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void heal(NemesisContext ctx) throws Exception {
        Exception first = null;
        try {
            end(ctx, List.copyOf(paused), false);
        } catch (Exception e) {
            first = e;
        }
        try {
            end(ctx, List.copyOf(killed), true);
        } catch (Exception e) {
            first = first == null ? e : first;
        }
        if (first != null) {
            throw first;
        }
    }
}
