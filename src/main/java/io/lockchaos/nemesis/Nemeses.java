package io.lockchaos.nemesis;

import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Nemesis combinators. */
public final class Nemeses {
    private Nemeses() {
    }

    /** A nemesis that handles nothing. */
    public static Nemesis noop() {
        return compose(List.of());
    }

    /**
     * One nemesis that routes each fault to the member that handles its kind (the first, when several do), and heals
     * them all.
     */
    public static Nemesis compose(List<Nemesis> members) {
        Map<FaultKind, Nemesis> route = new EnumMap<>(FaultKind.class);
        for (Nemesis n : members) {
            for (FaultKind k : n.kinds()) {
                route.putIfAbsent(k, n);
            }
        }
        List<Nemesis> all = List.copyOf(members);
        return new Nemesis() {
            @Override
            public Set<FaultKind> kinds() {
                return route.isEmpty() ? Set.of() : EnumSet.copyOf(route.keySet());
            }

            @Override
            public Started start(Fault fault, long durationMillis, NemesisContext context) throws Exception {
                Nemesis n = route.get(fault.kind());
                if (n == null) {
                    throw new IllegalStateException("no nemesis handles " + fault.kind().wireName()
                            + " in this run");
                }
                return n.start(fault, durationMillis, context);
            }

            @Override
            public void heal(NemesisContext context) throws Exception {
                Exception first = null;
                for (Nemesis n : all) {
                    try {
                        n.heal(context);
                    } catch (Exception e) {
                        first = first == null ? e : first;
                    }
                }
                if (first != null) {
                    throw first;
                }
            }
        };
    }

    /**
     * The nemeses a run uses: network faults when it has proxies, the others the shared ones make, and those of the
     * cluster's own service ({@link ServerFaults}).
     */
    public static Nemesis standard(NemesisContext context) {
        List<Nemesis> members = new ArrayList<>();
        if (context.network() != null || context.partitioner() != null) {
            members.add(new NetworkNemesis());
        }
        members.add(new SessionNemesis());
        members.add(new ServerNemesis());
        members.add(new ClientPauseNemesis());
        members.add(new InterruptNemesis());
        members.add(new DataPathNemesis());
        members.add(new ClockNemesis());
        members.add(new FailoverNemesis());
        if (context.cluster() instanceof ServerFaults own) {
            members.addAll(own.nemeses());
        }
        return compose(members);
    }
}
