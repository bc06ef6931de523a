package io.lockchaos.nemesis;

import io.lockchaos.client.ClientHandle;
import io.lockchaos.cluster.Sessionless;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client paused as a GC pause would pause it: the next holder to reach its danger point (after its last check that
 * it holds the lock, before its write to the resource) stops its thread there and, when the run has proxies, its
 * connections go silent too, so its session expires on the server while it believes it holds the lock. Target
 * {@code holder} (or {@code random}) takes the first holder to get there; {@code process:N} waits for that worker;
 * {@code releaser} takes the first worker to reach the pause point inside its release (the tutorial's RedLock: between
 * the GET that finds its value and the DEL); {@code waiter} and {@code next-waiter} stop a waiting client's own agent.
 */
final class ClientPauseNemesis implements Nemesis {
    /** How long the nemesis waits for a holder to reach its danger point. */
    private static final long REACH_MILLIS = 10_000;
    private int faults;
    /** The agents of waiters stopped and not yet continued: the final heal continues them. */
    private final Set<Long> stoppedWaiters = new java.util.LinkedHashSet<>();

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.PAUSE_CLIENT);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        if (fault.target().endsWith("waiter")) {
            return pauseWaiter(fault, ctx); // the driver ends it when its time is up
        }
        String tag = "lockchaos-pause-" + (++faults);
        List<ClientHandle> candidates = fault.target().startsWith("process:")
                ? List.of(ctx.client(fault.target())) : ctx.clients().all();
        AtomicReference<ClientHandle> who = new AtomicReference<>();
        AtomicReference<String> problem = new AtomicReference<>();
        long millis = durationMillis;
        ClientHandle.PauseRequest request = new ClientHandle.PauseRequest(millis, h -> {
            who.set(h);
            freeze(ctx, h, tag, problem);
        }, h -> thaw(ctx, h, tag, problem));
        // a releaser stops inside its release (see LockClient#release(DangerPoint)), any other holder at its
        // danger point in the critical section
        boolean inRelease = fault.target().equals("releaser");
        for (ClientHandle h : candidates) {
            if (inRelease) {
                h.requestReleasePause(request);
            } else {
                h.requestPause(request);
            }
        }
        boolean reached;
        try {
            reached = request.awaitPaused(REACH_MILLIS);
        } finally {
            for (ClientHandle h : candidates) {
                if (inRelease) {
                    h.cancelReleasePause(request);
                } else {
                    h.cancelPause(request);
                }
            }
        }
        if (!reached && !request.claim()) {
            reached = request.awaitPaused(REACH_MILLIS); // claimed just now by a worker
        }
        if (!reached) {
            throw new IllegalStateException("no " + (inRelease ? "releaser reached its release point" : "holder reached"
                    + " its danger point") + " within " + REACH_MILLIS + " ms");
        }
        ClientHandle h = who.get();
        Map<String, Object> value = whom(fault, h);
        value.put("connections_frozen", !frozenNever(ctx) && problem.get() == null);
        if (h.session().processId() > 0) {
            value.put("agent_stopped", h.session().processId()); // the client's own agent, SIGSTOPped for the pause
        }
        if (problem.get() != null) {
            value.put("problem", problem.get());
        }
        return new Started(value, () -> {
            if (!request.awaitResumed(millis + REACH_MILLIS)) {
                throw new IllegalStateException("process " + h.process() + " did not resume within "
                        + (millis + REACH_MILLIS) + " ms");
            }
            return value;
        });
    }

    /** What the history says of a fault on one client: the fault and the client (a pause's, an interrupt's). */
    static Map<String, Object> whom(Fault fault, ClientHandle h) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("process", h.process());
        value.put("worker", h.worker());
        value.put("session", SessionNemesis.sessionOf(h));
        return value;
    }

    /**
     * Stops a client that waits for the lock: its agent (it has one of its own) is SIGSTOPped for the fault's
     * duration wherever its threads are, as a GC pause stops a JVM, and its connections stay open and unread, as the
     * kernel keeps them through a real pause: the servers see a client that went quiet, not one that went away
     * (etcd's Lock request, for one, stays pending while the waiter's lease runs out).
     */
    private Started pauseWaiter(Fault fault, NemesisContext ctx) {
        ClientHandle h = ctx.client(fault.target());
        long pid = h.session().processId();
        if (pid <= 0) {
            throw new IllegalStateException("process " + h.process() + " has no client agent of its own to stop");
        }
        AtomicReference<String> problem = new AtomicReference<>();
        Map<String, Object> value = whom(fault, h);
        value.put("agent_stopped", pid);
        stoppedWaiters.add(pid);
        signal(pid, "-STOP", problem);
        if (problem.get() != null) {
            value.put("problem", problem.get());
        }
        return new Started(value, () -> {
            stoppedWaiters.remove(pid);
            signal(pid, "-CONT", problem);
            if (problem.get() != null) {
                value.put("problem", problem.get());
            }
            return value;
        });
    }

    /**
     * Freezes the paused worker's connections. This runs in the worker's thread, which must not fail for it: a
     * failure is kept and reported in the fault's value instead.
     */
    private static void freeze(NemesisContext ctx, ClientHandle h, String tag, AtomicReference<String> problem) {
        long pid = h.session().processId();
        if (pid > 0) {
            signal(pid, "-STOP", problem); // a client agent of its own stops whole, its heartbeats too
        }
        if (frozenNever(ctx)) {
            return;
        }
        try {
            for (String p : ctx.network().clientProxies(h.worker(), ctx.cluster().nodes())) {
                ctx.network().blackhole(p, tag);
            }
        } catch (IOException | RuntimeException e) {
            problem.set("connections not frozen: " + e.getMessage());
        }
    }

    /**
     * Whether a paused client's connections stay as they are: without proxies they cannot be silenced, and where the
     * clients keep nothing alive in the background (Redis without Redisson's watchdog) they must not be, since the
     * proxies' blackhole loses what was in flight and a real pause keeps the connections.
     */
    private static boolean frozenNever(NemesisContext ctx) {
        return ctx.network() == null || ctx.cluster() instanceof Sessionless s && s.sessionless();
    }

    /**
     * SIGSTOP or SIGCONT to a client agent this run started, by pid, with kill(1) from an argument array. An
     * interrupt (the run ending during the pause) does not cut it short: an agent left stopped would hold its sessions
     * and nodes until the run kills it.
     */
    private static void signal(long pid, String sig, AtomicReference<String> problem) {
        boolean interrupted = Thread.interrupted();
        try {
            Process k = new ProcessBuilder("kill", sig, Long.toString(pid)).redirectErrorStream(true).start();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
            while (true) {
                try {
                    if (!k.waitFor(Math.max(0, deadline - System.nanoTime()),
                            java.util.concurrent.TimeUnit.NANOSECONDS) || k.exitValue() != 0) {
                        problem.set("kill " + sig + " " + pid + " failed");
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (IOException e) {
            problem.set("kill " + sig + " " + pid + ": " + e.getMessage());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void thaw(NemesisContext ctx, ClientHandle h, String tag, AtomicReference<String> problem) {
        long pid = h.session().processId();
        if (pid > 0) {
            signal(pid, "-CONT", problem);
        }
        if (frozenNever(ctx)) {
            return;
        }
        try {
            ctx.network().remove(tag);
        } catch (IOException | RuntimeException e) {
            problem.set("connections not thawed: " + e.getMessage());
        }
    }

    @Override
    public void heal(NemesisContext ctx) {
        // a paused holder resumes by itself when its time is up; a stopped waiter's agent needs its SIGCONT
        for (Long pid : List.copyOf(stoppedWaiters)) {
            signal(pid, "-CONT", new AtomicReference<>());
        }
        stoppedWaiters.clear();
    }
}
