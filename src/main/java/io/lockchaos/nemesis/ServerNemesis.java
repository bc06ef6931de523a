package io.lockchaos.nemesis;

import io.lockchaos.cluster.Cluster;
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
    /** Each server down or stopped, with what brings it back: the lock's servers, or the protected data's. */
    private final Map<ServerNode, Killable> killed = new LinkedHashMap<>();
    private final Map<ServerNode, Pausable> paused = new LinkedHashMap<>();

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.KILL, FaultKind.PAUSE);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        boolean kill = fault.kind() == FaultKind.KILL;
        Cluster cluster = ctx.clusterOf(fault.target());
        if (kill && !(cluster instanceof Killable) || !kill && !(cluster instanceof Pausable)) {
            throw new IllegalStateException("this ensemble cannot " + (kill ? "kill" : "pause") + " servers");
        }
        List<ServerNode> targets = ctx.servers(fault.target()).stream()
                .filter(n -> !killed.containsKey(n) && !paused.containsKey(n)).toList();
        if (targets.isEmpty()) {
            throw new IllegalStateException("the servers " + fault.target() + " names are already down or paused");
        }
        List<Integer> ids = targets.stream().map(ServerNode::id).toList();
        List<ServerNode> done = new ArrayList<>();
        try {
            for (ServerNode n : targets) {
                if (kill) {
                    ((Killable) cluster).kill(n);
                    killed.put(n, (Killable) cluster);
                } else {
                    ((Pausable) cluster).pause(n);
                    paused.put(n, (Pausable) cluster);
                }
                done.add(n);
            }
        } catch (RuntimeException e) {
            try {
                end(done, kill); // the op is info: do not leave half of it in force
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
            end(targets, kill);
            return value;
        });
    }

    /** Restarts or resumes each server, every one even when some fail; throws the first failure after. */
    private void end(List<ServerNode> targets, boolean kill) throws Exception {
        Exception first = null;
        for (ServerNode n : targets) {
            try {
                Killable k = kill ? killed.remove(n) : null;
                Pausable p = kill ? null : paused.remove(n);
                if (k != null) {
                    k.restart(n);
                } else if (p != null) {
                    p.resume(n);
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
            end(List.copyOf(paused.keySet()), false);
        } catch (Exception e) {
            first = e;
        }
        try {
            end(List.copyOf(killed.keySet()), true);
        } catch (Exception e) {
            first = first == null ? e : first;
        }
        if (first != null) {
            throw first;
        }
    }
}
