package io.lockchaos.nemesis;

import io.lockchaos.client.ClientHandle;
import io.lockchaos.client.SessionControl;
import io.lockchaos.cluster.ClockShiftLibrary;
import io.lockchaos.cluster.ClockShiftable;
import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Clock faults: servers' wall clocks move {@code by_ms} (default 60 s) ahead for the fault's duration ({@code
 * clock-jump}), or flip between that and the machine's time every {@code period_ms} ({@code clock-strobe}), and are
 * back at the machine's time when the fault ends or at the final heal, as Jepsen's clock nemesis resets clocks. On
 * servers it needs a cluster that is {@link ClockShiftable} (ZooKeeper servers of the local ensemble, Redis instances,
 * PostgreSQL servers); on clients ({@code clients}, {@code holder}), client agents started under the library.
 */
final class ClockNemesis implements Nemesis {
    /** The jump when a timeline names none: far beyond any lease a test uses. */
    static final long DEFAULT_JUMP_MILLIS = 60_000;
    /** How often a strobe flips when a timeline does not say. */
    static final long DEFAULT_PERIOD_MILLIS = 100;
    /** The clocks moved now, by name, so that an end or the heal puts each back once. */
    private final Map<String, Clock> shifted = new java.util.concurrent.ConcurrentHashMap<>();
    private final Set<Thread> strobes = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** One clock a fault moves: a server's, or a client agent's (every client in that JVM). */
    private record Clock(String name, LongConsumer shift) {
    }

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.CLOCK_JUMP, FaultKind.CLOCK_STROBE);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) {
        long by = fault.option("by_ms", DEFAULT_JUMP_MILLIS);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        List<Clock> targets = fault.movesClientClocks() ? clientClocks(fault, ctx, value)
                : serverClocks(fault.target(), ctx, value);
        List<Clock> done = new ArrayList<>();
        try {
            for (Clock c : targets) {
                c.shift().accept(by);
                shifted.put(c.name(), c);
                done.add(c);
            }
        } catch (RuntimeException e) {
            reset(done);
            throw e;
        }
        value.put("by_ms", by);
        Thread strobe = null;
        if (fault.kind() == FaultKind.CLOCK_STROBE) {
            long period = fault.option("period_ms", DEFAULT_PERIOD_MILLIS);
            value.put("period_ms", period);
            strobe = strobe(targets, by, period);
        }
        Thread running = strobe;
        return new Started(value, () -> {
            stop(running);
            reset(targets);
            return value;
        });
    }

    private static List<Clock> serverClocks(String target, NemesisContext ctx, Map<String, Object> value) {
        if (!(ctx.cluster() instanceof ClockShiftable clocks)) {
            throw new IllegalStateException("this cluster's clocks cannot be moved (clock faults need servers this"
                    + " machine starts: the local ZooKeeper ensemble, Redis instances or PostgreSQL servers)");
        }
        List<ServerNode> nodes = ctx.servers(target);
        value.put("nodes", nodes.stream().map(ServerNode::id).toList());
        return nodes.stream().map(n -> new Clock("server " + n.id(), by -> clocks.shiftClock(n, by))).toList();
    }

    /**
     * The clocks of client agents: one client's own agent (the holder, a waiter, the next waiter or process N: it
     * must serve that client alone, or the jump would move its neighbours too) or every agent ({@code clients}).
     */
    private static List<Clock> clientClocks(Fault fault, NemesisContext ctx, Map<String, Object> value) {
        String target = fault.target();
        if (fault.movesOneClientsClock()) {
            ClientHandle h = ctx.client(target);
            SessionControl s = h.session();
            String who = target.equals("holder") ? "the holder" : "process " + h.process() + " (" + target + ")";
            if (s == null || s.clockFile() == null) {
                throw new IllegalStateException(who + "'s clock cannot move: client clocks move in client"
                        + " agents started for them");
            }
            if (s.processId() < 0) {
                throw new IllegalStateException(who + " shares its client agent with other clients: its clock"
                        + " cannot move alone (16 clients at most have an agent each)");
            }
            value.put("process", h.process());
            value.put("worker", h.worker());
            return List.of(fileClock(s.clockFile()));
        }
        java.util.TreeSet<Path> files = new java.util.TreeSet<>();
        for (ClientHandle h : ctx.clients().all()) {
            SessionControl s = h.session();
            if (s != null && s.clockFile() != null) {
                files.add(s.clockFile());
            }
        }
        if (files.isEmpty()) {
            throw new IllegalStateException("no client runs where its clock can move: client clocks move in client"
                    + " agents started for them");
        }
        value.put("agents", files.size());
        return files.stream().map(ClockNemesis::fileClock).toList();
    }

    private static Clock fileClock(Path offsetFile) {
        return new Clock("agent " + offsetFile, by -> {
            try {
                ClockShiftLibrary.writeOffset(offsetFile, by);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** A thread that flips the targets' clocks between {@code by} and 0 every {@code period} until interrupted. */
    private Thread strobe(List<Clock> targets, long by, long period) {
        Thread t = new Thread(() -> {
            boolean ahead = true;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(period);
                } catch (InterruptedException e) {
                    return;
                }
                ahead = !ahead;
                for (Clock c : targets) {
                    try {
                        c.shift().accept(ahead ? by : 0);
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

    private void reset(List<Clock> clocks) {
        RuntimeException first = null;
        for (Clock c : clocks) {
            try {
                if (shifted.remove(c.name()) != null) {
                    c.shift().accept(0);
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
        reset(List.copyOf(shifted.values()));
    }
}
