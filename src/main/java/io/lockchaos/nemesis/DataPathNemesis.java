package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.lockchaos.client.ClientHandle;
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
 * The lost answer ({@code lose-commit}): the next holder to commit its transaction on the protected data has the way
 * back of its connection to the database cut just before it sends the COMMIT, so the COMMIT reaches the server and
 * its answer never reaches the client. The cut is made in the holder's own thread at that point, so it is exact; the
 * client learns nothing until its statement times out (the outcome is unknown, recorded as info), and when the fault
 * ends the proxy drops the connection. A lock that commits the data with its own release ({@code pg-advisory-xact})
 * has its way back from the lock's server cut instead, just before the release sends its COMMIT.
 */
final class DataPathNemesis implements Nemesis {
    /** How long the nemesis waits for a holder to reach its commit. */
    private static final long REACH_MILLIS = 10_000;
    private int faults;

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.LOSE_COMMIT);
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        if (ctx.network() == null) {
            throw new IllegalStateException("lose-commit cuts a client's proxy to the database: this run has none");
        }
        String tag = "lockchaos-lose-commit-" + (++faults);
        List<ClientHandle> candidates = fault.target().startsWith("process:")
                ? List.of(ctx.client(fault.target())) : ctx.clients().all();
        AtomicReference<ClientHandle> who = new AtomicReference<>();
        AtomicReference<Integer> process = new AtomicReference<>();
        AtomicReference<String> problem = new AtomicReference<>();
        ClientHandle.PauseRequest request = new ClientHandle.PauseRequest(0, h -> {
            who.set(h);
            process.set(h.process()); // the process that commits: it retires once the answer is lost
            try {
                // the commit goes to the data's server; a lock that keeps its data commits on the lock's own path
                List<String> path = ctx.network().dataProxies(h.worker());
                for (String p : path.isEmpty() ? ctx.network().clientProxies(h.worker(), ctx.cluster().nodes())
                        : path) {
                    ctx.network().blackhole(p, ToxicDirection.DOWNSTREAM, tag);
                }
            } catch (IOException | RuntimeException e) {
                problem.set(String.valueOf(e.getMessage())); // the commit goes on; the fault says why it missed
            }
        }, h -> { });
        candidates.forEach(h -> h.requestCommitLoss(request));
        boolean reached;
        try {
            reached = request.awaitPaused(REACH_MILLIS);
        } finally {
            candidates.forEach(h -> h.cancelCommitLoss(request));
        }
        if (!reached && !request.claim()) {
            reached = request.awaitPaused(REACH_MILLIS); // claimed just now by a worker
        }
        if (!reached) {
            throw new IllegalStateException("no holder reached its commit within " + REACH_MILLIS + " ms");
        }
        if (problem.get() != null) {
            ctx.network().remove(tag);
            throw new IllegalStateException("could not cut process " + process.get() + "'s way back: "
                    + problem.get());
        }
        ClientHandle h = who.get();
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("process", process.get());
        value.put("worker", h.worker());
        return new Started(value, () -> {
            ctx.network().remove(tag);
            return value;
        });
    }

    @Override
    public void heal(NemesisContext ctx) {
        // the network nemesis' heal removes every toxic, this fault's too
    }
}
