package io.lockchaos.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.lock.LockResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.TransactionalSet;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * etcd's Lock API on a lease this client keeps alive, as Jepsen's etcd lock workload uses it: an acquire grants a
 * lease, asks the lock service for the lock on it (the server creates the key {@code <name>/<lease id>} and waits for
 * every older key under the name to go), and renews the lease every third of its TTL until the release deletes the
 * key and revokes the lease. The key's create revision, unique and increasing across holders, is recorded with the
 * grant ({@code create_revision}); it fences only where etcd itself compares it (the fenced variant).
 *
 * <p>The client's sense of holding is the lease's: it ends one TTL after the last renewal the server acknowledged
 * (counted from when that renewal was sent, so never later than the server's own expiry). A holder paused past it
 * (a GC pause after its last check) keeps writing as if it held the lock: that is the overlap Jepsen reported.
 *
 * <p>With {@code fenced} the client also keeps the protected set in etcd and writes it with a transaction that
 * compares the lock key's create revision with the holder's token: once the key is gone (its lease expired) the
 * server rejects the stale holder's write. That is Jepsen's {@code lock-etcd-set}.
 */
final class EtcdLock implements LockClient, TransactionalSet {
    /** Where the protected sets live: outside every lock's prefix, which the lock service waits on. */
    static final String SETS = "/lockchaos-sets";

    private final Client client;
    private final ByteSequence name;
    private final long ttlSeconds;
    private final Duration requestTimeout;
    private final boolean fenced;
    private final ScheduledExecutorService renewals;

    private volatile long validUntil;
    private volatile long leaseId;
    /** The lease of the hold being acquired or held, 0 for none: a renewal still in flight at a release counts no more. */
    private volatile long holding;
    private ByteSequence key;
    private long token = -1;
    private ScheduledFuture<?> renewal;
    /** Lock requests sent since the last grant (timed-out acquires' included): what each grant cost the service. */
    private long tries;

    EtcdLock(Client client, String name, Duration lease, Duration requestTimeout, boolean fenced,
             ScheduledExecutorService renewals) {
        this.client = client;
        this.name = bytes(name);
        this.ttlSeconds = ttlSeconds(lease);
        this.requestTimeout = requestTimeout;
        this.fenced = fenced;
        this.renewals = renewals;
    }

    /** The lease TTL for a {@code lease_ms}: whole seconds, at least etcd's minimum of 2 s on its default timing. */
    static long ttlSeconds(Duration lease) {
        return Math.max(2, (lease.toMillis() + 999) / 1000);
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    /** The lease of the current or last hold (0 before the first): the client's session in the history. */
    long leaseId() {
        return leaseId;
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        long sent = System.nanoTime();
        long lease = get(client.getLeaseClient().grant(ttlSeconds), requestTimeout).getID();
        leaseId = lease;
        validUntil = sent + TimeUnit.SECONDS.toNanos(ttlSeconds);
        holding = lease;
        long period = Math.max(200, TimeUnit.SECONDS.toMillis(ttlSeconds) / 3);
        renewal = renewals.scheduleWithFixedDelay(() -> renew(lease), period, period, TimeUnit.MILLISECONDS);
        LockResponse r;
        tries++;
        try {
            r = get(client.getLockClient().lock(name, lease), timeout);
        } catch (TimeoutException e) {
            // the server still waits for the lock on this lease: revoking it deletes the waiting key, and once that
            // is acknowledged this client certainly holds nothing (else the outcome is unknown: the exception says so)
            stopRenewals();
            holding = 0;
            revoke(lease, true);
            return null;
        } catch (Exception e) {
            stopRenewals();
            holding = 0;
            revoke(lease, false);
            throw e;
        }
        key = r.getKey();
        long answered = r.getHeader().getRevision();
        List<KeyValue> now;
        try {
            now = get(client.getKVClient().get(key), requestTimeout).getKvs();
        } catch (InterruptedException e) {
            // the lock is held: an interrupt now must not make the acquire say otherwise (a Lock that throws
            // InterruptedException holds nothing), so the grant stands with the answer's revision, interrupt kept
            Thread.currentThread().interrupt();
            now = null;
        }
        // the token is the key's create revision, read back: the answer's header is the server's last read while
        // it waited, not the key's creation; a key already gone keeps the answer's revision, which no write
        // conditioned on the key can match
        token = now == null || now.isEmpty() ? answered : now.get(0).getCreateRevision();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("lease", Long.toHexString(lease));
        facts.put("ttl_s", ttlSeconds);
        facts.put("create_revision", token);
        facts.put("tries", tries);
        if (now != null && now.isEmpty() && goneAt(key, answered)) {
            facts.put("node_gone", true); // granted on a key etcd had deleted before it answered (issue 11456)
        }
        tries = 0;
        // no fencing token for the run's fenced register: as in Jepsen's workloads, the holder's one write is the
        // set's (checked by etcd itself when fenced), so its danger point is just before that write
        return new Grant(key.toString(StandardCharsets.UTF_8), -1, lease, lease, -1, -1, facts);
    }

    /**
     * Whether {@code k} did not exist at revision {@code revision}, the one the Lock answer carries (the server's last
     * read while it waited): then etcd granted a lock whose key its lease's expiry had already deleted. Asked only
     * when the key is gone now; a key that existed at that revision and went since (its lease expired just after
     * the grant) is a lost lock, not this. A read that fails (a revision compacted away) claims nothing: the grant
     * stands as the answer said.
     */
    private boolean goneAt(ByteSequence k, long revision) {
        try {
            GetResponse g = get(client.getKVClient().get(k, io.etcd.jetcd.options.GetOption.builder()
                    .withRevision(revision).build()), requestTimeout);
            return g.getKvs().isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the run is ending: its worker sees the interrupt next
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    private void renew(long lease) {
        long sent = System.nanoTime();
        try {
            LeaseKeepAliveResponse r = get(client.getLeaseClient().keepAliveOnce(lease), requestTimeout);
            if (r.getTTL() > 0 && holding == lease) {
                long until = sent + TimeUnit.SECONDS.toNanos(r.getTTL());
                if (until - validUntil > 0) {
                    validUntil = until;
                }
            }
        } catch (Exception e) {
            // not renewed this time: the validity runs out unless a later renewal gets through (a lease already
            // gone answers with an error too, and then validity simply ends)
        }
    }

    @Override
    public boolean release() throws Exception {
        stopRenewals();
        ByteSequence k = key;
        long t = token;
        long lease = leaseId;
        key = null;
        token = -1;
        holding = 0;
        if (k == null) {
            // nothing to release: an application's finally after an acquire that threw (interrupted, timed out)
            return false;
        }
        try {
            // the key is ours only while its create revision is our token: a key of the same name made since (on
            // a lease with the same id, which etcd never reuses) is not
            TxnResponse r = get(client.getKVClient().txn()
                    .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(t)))
                    .Then(Op.delete(k, DeleteOption.DEFAULT)).commit(), requestTimeout);
            return r.isSucceeded();
        } finally {
            revoke(lease, false);
        }
    }

    /** Revokes a lease; with {@code strict} a failure is thrown (the caller's outcome then is unknown). */
    private void revoke(long lease, boolean strict) throws Exception {
        try {
            get(client.getLeaseClient().revoke(lease), requestTimeout);
        } catch (Exception e) {
            if (strict && !leaseNotFound(e)) {
                throw new java.io.IOException("could not revoke lease " + Long.toHexString(lease) + " after the"
                        + " acquire timed out: " + e.getMessage(), e);
            }
        }
    }

    private static boolean leaseNotFound(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("requested lease not found")) {
                return true; // expired already: the waiting key went with it
            }
        }
        return false;
    }

    private void stopRenewals() {
        if (renewal != null) {
            renewal.cancel(false);
            renewal = null;
        }
    }

    @Override
    public boolean stillHolds() {
        return holding != 0 && System.nanoTime() - validUntil < 0;
    }

    @Override
    public long validUntilNanos() {
        return holding != 0 ? validUntil : Long.MAX_VALUE;
    }

    @Override
    public TransactionalSet transactionalSet() {
        return fenced ? this : null;
    }

    @Override
    public List<Long> readSet(String setName) throws Exception {
        GetResponse g = get(client.getKVClient().get(bytes(SETS + setName)), requestTimeout);
        List<Long> out = new ArrayList<>();
        for (KeyValue kv : g.getKvs()) {
            String v = kv.getValue().toString(StandardCharsets.UTF_8);
            for (String e : v.split(",")) {
                if (!e.isBlank()) {
                    out.add(Long.parseLong(e.trim()));
                }
            }
        }
        return out;
    }

    @Override
    public void writeSet(String setName, List<Long> elements) throws Exception {
        ByteSequence k = key;
        if (k == null) {
            throw new Rejected("no hold to write under");
        }
        StringBuilder v = new StringBuilder();
        for (Long e : elements) {
            v.append(v.isEmpty() ? "" : ",").append(e);
        }
        TxnResponse r = get(client.getKVClient().txn()
                .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(token)))
                .Then(Op.put(bytes(SETS + setName), bytes(v.toString()), PutOption.DEFAULT)).commit(),
                requestTimeout);
        if (!r.isSucceeded()) {
            throw new Rejected("the lock key " + k.toString(StandardCharsets.UTF_8) + " is no longer at revision "
                    + token + ": the server refused the write");
        }
    }

    @Override
    public boolean durableOnWrite() {
        return true;
    }

    private static <T> T get(CompletableFuture<T> f, Duration timeout) throws Exception {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw e;
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof Exception ex ? ex : e;
        }
    }

    @Override
    public void close() {
        stopRenewals();
        long lease = leaseId;
        if (key != null && lease != 0) {
            try {
                revoke(lease, false);
            } catch (Exception e) {
                // best effort: the lease expires by itself
            }
        }
        client.close();
    }
}
