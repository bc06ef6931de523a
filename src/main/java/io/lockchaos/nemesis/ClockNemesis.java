package io.lockchaos.nemesis;

import io.lockchaos.cluster.ClockShiftable;
import io.lockchaos.cluster.ZkNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Clock jumps: servers' wall clocks move {@code by_ms} (default 60 s) ahead for the fault's duration and back to the
 * machine's time when it ends or at the final heal, as Jepsen's clock nemesis resets clocks. Needs a cluster that is
 * {@link ClockShiftable} (Redis instances, PostgreSQL servers).
 */
final class ClockNemesis implements Nemesis {
    /** The jump when a timeline names none: far beyond any lease a test uses. */
    static final long DEFAULT_JUMP_MILLIS = 60_000;
    private final Set<ZkNode> shifted = new java.util.LinkedHashSet<>();

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.CLOCK_JUMP);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) {
        if (!(ctx.cluster() instanceof ClockShiftable clocks)) {
            throw new IllegalStateException("this cluster's clocks cannot be moved (clock-jump needs Redis instances or PostgreSQL servers)");
        }
        long by = fault.option("by_ms", DEFAULT_JUMP_MILLIS);
        List<ZkNode> targets = ctx.servers(fault.target());
        List<ZkNode> done = new ArrayList<>();
        try {
            for (ZkNode n : targets) {
                clocks.shiftClock(n, by);
                shifted.add(n);
                done.add(n);
            }
        } catch (RuntimeException e) {
            reset(clocks, done);
            throw e;
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("nodes", targets.stream().map(ZkNode::id).toList());
        value.put("by_ms", by);
        return new Started(value, () -> {
            reset(clocks, targets);
            return value;
        });
    }

    private void reset(ClockShiftable clocks, List<ZkNode> nodes) {
        RuntimeException first = null;
        for (ZkNode n : nodes) {
            try {
                if (shifted.remove(n)) {
                    clocks.shiftClock(n, 0);
                }
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public void heal(NemesisContext ctx) {
        if (ctx.cluster() instanceof ClockShiftable clocks) {
            reset(clocks, List.copyOf(shifted));
        }
    }
}
