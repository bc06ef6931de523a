package io.lockchaos.nemesis;

import io.lockchaos.cluster.Promotable;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Fails over to a replica ({@link FaultKind#FAILOVER}); needs a cluster that is {@link Promotable}. */
final class FailoverNemesis implements Nemesis {
    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.FAILOVER);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        if (!(ctx.clusterOf(fault.target()) instanceof Promotable p)) {
            throw new IllegalStateException("these servers have no replica to fail over to");
        }
        ServerNode to = ctx.servers(fault.target()).get(0);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.putAll(p.failOver(to));
        return new Started(value, null);
    }

    @Override
    public void heal(NemesisContext ctx) {
        // a failover is not undone: the fenced servers stay down, the promoted one stays the primary
    }
}
