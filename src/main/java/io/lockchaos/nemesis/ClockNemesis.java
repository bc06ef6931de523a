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
 * Clock faults: servers' wall clocks move {@code by_ms} (default 60 s) ahead for the fault's duration ({@code
 * clock-jump}), or flip between that and the machine's time every {@code period_ms} ({@code clock-strobe}), and are
 * back at the machine's time when the fault ends or at the final heal, as Jepsen's clock nemesis resets clocks. Needs
 * a cluster that is {@link ClockShiftable} (ZooKeeper servers of the local ensemble, Redis instances, PostgreSQL
 * servers).
 */
final class ClockNemesis implements Nemesis {
    /** The jump when a timeline names none: far beyond any lease a test uses. */
    static final long DEFAULT_JUMP_MILLIS = 60_000;
    /** How often a strobe flips when a timeline does not say. */
    static final long DEFAULT_PERIOD_MILLIS = 100;
    private final Set<ZkNode> shifted = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Set<Thread> strobes = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.CLOCK_JUMP, FaultKind.CLOCK_STROBE);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) {
        if (!(ctx.cluster() instanceof ClockShiftable clocks)) {
            throw new IllegalStateException("this cluster's clocks cannot be moved (clock faults need servers this"
                    + " machine starts: the local ZooKeeper ensemble, Redis instances or PostgreSQL servers)");
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
        Thread strobe = null;
        if (fault.kind() == FaultKind.CLOCK_STROBE) {
            long period = fault.option("period_ms", DEFAULT_PERIOD_MILLIS);
            value.put("period_ms", period);
            strobe = strobe(clocks, targets, by, period);
        }
        Thread running = strobe;
        return new Started(value, () -> {
            stop(running);
            reset(clocks, targets);
            return value;
        });
    }

    /** A thread that flips the targets' clocks between {@code by} and 0 every {@code period} until interrupted. */
    private Thread strobe(ClockShiftable clocks, List<ZkNode> targets, long by, long period) {
        Thread t = new Thread(() -> {
            boolean ahead = true;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
                ahead = !ahead;
                for (ZkNode n : targets) {
                    try {
                        clocks.shiftClock(n, ahead ? by : 0);
                    } catch (RuntimeException e) {
                        // a server gone meanwhile: the next flip or the reset tries again
                    }
                }
            }
        }, "lockchaos-clock-strobe");
        t.setDaemon(true);
        strobes.add(t);
        t.start();
        return t;
    }

    private void stop(Thread strobe) {
        if (strobe == null) {
            return;
        }
        strobe.interrupt();
        try {
            strobe.join(5_000); // a flip after the reset would leave a clock moved
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        strobes.remove(strobe);
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
        List.copyOf(strobes).forEach(this::stop);
        if (ctx.cluster() instanceof ClockShiftable clocks) {
            reset(clocks, List.copyOf(shifted));
        }
    }
}
