package io.lockchaos.nemesis;

import eu.rekawek.toxiproxy.model.ToxicDirection;
import io.lockchaos.client.ClientHandle;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * ends the proxy drops the connection.
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
        ClientHandle.PauseRequest request = new ClientHandle.PauseRequest(0, h -> {
            who.set(h);
            try {
                for (String p : ctx.network().dataProxies(h.worker())) {
                    ctx.network().blackhole(p, ToxicDirection.DOWNSTREAM, tag);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
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
        ClientHandle h = who.get();
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("process", h.process());
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
