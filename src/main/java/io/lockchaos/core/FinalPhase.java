package io.lockchaos.core;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.TransactionalSet;
import io.lockchaos.client.DataConnection;
import io.lockchaos.client.DataFencing;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.client.LockWorker;
import io.lockchaos.client.Recorder;
import io.lockchaos.client.Resources;
import io.lockchaos.history.Fn;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The end of a run, after the final heal and quiesce and while the workers' sessions are still open: one probe
 * acquire and release per key by a fresh client (does the lock still work?), the final reads of the protected sets,
 * and an inspection of every ephemeral lock node left, with its owner, and of the sessions still open (the leak
 * checker's evidence). A probe that throws is recorded as info; the run goes on to the inspection.
 */
final class FinalPhase {

    private final TestSpec spec;
    private final Sessions sessions;
    private final List<String> keys;

    FinalPhase(TestSpec spec, Sessions sessions, List<String> keys) {
        this.spec = spec;
        this.sessions = sessions;
        this.keys = keys;
    }

    /**
     * Probes every key, reads the protected sets (from the database at {@code dataAddress} when the data is kept
     * there, null otherwise) and inspects what the servers still hold.
     */
    void run(String connect, Recorder rec, Collection<Resources> resources, String dataAddress) throws Exception {
        int process = Op.FIRST_FINAL_PROCESS;
        List<String> probeKeys = spec.recipe().spansKeys() ? List.of("multi") : keys;
        Map<String, LockClient> probes = new java.util.HashMap<>();
        for (String key : probeKeys) {
            LockClient c = probe(connect, rec, key, process++);
            if (c != null) {
                probes.put(key, c);
            }
        }
        int reader = process;
        try (DataConnection data = dataAddress == null ? null
                : spec.dataService().openData(dataAddress, Duration.ofSeconds(10))) {
            for (Resources r : resources) {
                // a lock that keeps its data is read through a client of its own (the key's probe, its hold given
                // back); data in a database is read there, on a connection of the final phase's own
                LockClient c = probes.get(r.lockKey());
                TransactionalSet store = c == null ? null : c.transactionalSet();
                if (store == null && data != null && r.inDatabase()) {
                    store = data.grant(-1, DataFencing.NONE, () -> { });
                }
                r.finalRead(rec, reader, store);
            }
        }
        inspect(connect, rec);
    }

    /** Acquires and releases {@code key} on a fresh client, which it returns (null when none could be opened). */
    private LockClient probe(String connect, Recorder rec, String key, int p) {
        LockClient probe;
        try {
            probe = sessions.client(connect, key, false, keys, () -> p, st -> { }, null);
        } catch (RuntimeException e) {
            System.err.println("lockchaos: warning: no probe client for " + key + " (" + e.getMessage() + ")");
            return null;
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("timeout_ms", probeTimeoutMillis());
        if (probeTimeoutMillis() > spec.workload().acquireTimeoutMillis()) {
            // waiting out a lease is allowed, but past the run's own timeout it says a lock outlived its holders
            params.put("leak_after_ms", spec.workload().acquireTimeoutMillis());
        }
        if (spec.recipe().readWrite()) {
            params.put("mode", "write");
        }
        if (spec.recipe().spansKeys()) {
            params.put("keys", keys);
        }
        Op acq = rec.invoke(p, Fn.ACQUIRE, key, params);
        Grant g;
        try {
            g = probe.acquire(Duration.ofMillis(probeTimeoutMillis()));
        } catch (Exception e) {
            rec.complete(acq, OpType.INFO, null, String.valueOf(e));
            return probe;
        }
        rec.complete(acq, g == null ? OpType.FAIL : OpType.OK, g == null ? null : g.toValue(),
                g == null ? "timeout" : null);
        if (g != null) {
            Op rel = rec.invoke(p, Fn.RELEASE, key, params.containsKey("mode") ? Map.of("mode", "write") : null);
            try {
                LockWorker.completeRelease(rec, rel, probe.releaseOutcome(() -> { }));
            } catch (Exception e) {
                rec.complete(rel, OpType.INFO, null, String.valueOf(e));
            }
        }
        return probe;
    }

    /**
     * How long a probe waits: the acquire timeout, and on Redis at least a lease and a second, because a key that a
     * failed attempt could not give back (its release timed out) holds the lock until its lease runs out, and that is
     * no leak.
     */
    private long probeTimeoutMillis() {
        long t = spec.workload().acquireTimeoutMillis();
        return spec.recipe().promises().leased() ? Math.max(t, spec.redis().leaseMillis() + 1000) : t;
    }

    private void inspect(String connect, Recorder rec) throws Exception {
        Op inv = rec.invoke(Op.NEMESIS, Fn.INSPECT, null, null);
        // what the servers still hold without end, and what will expire by itself
        LockService.Inspection found;
        try {
            // a lock that keeps itself where the service's inspection cannot see (a table of its own) inspects itself
            found = sessions.inspectLock(connect, keys);
            found = found != null ? found : LockServices.of(spec.recipe()).inspect(connect, keys);
        } catch (RuntimeException e) {
            rec.complete(inv, OpType.INFO, null, "inspection cut short: " + e.getMessage());
            return;
        }
        if (found == null) {
            rec.complete(inv, OpType.INFO, null, "inspection cut short: the lock service inspected nothing");
            return;
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("nodes", found.left());
        value.put("expiring", found.expiring());
        value.put("sessions", sessions.currentIds());
        if (!found.diverged().isEmpty()) {
            value.put("diverged", found.diverged());
        }
        if (!found.unread().isEmpty()) {
            value.put("unread", found.unread());
        }
        rec.complete(inv, OpType.OK, value, null);
    }
}
