package io.lockchaos.etcd;

import io.etcd.jetcd.Client;
import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.RecipeFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The etcd locks, each client on a jetcd client of its own (its own gRPC connection, through the client's proxies to
 * every member): {@code etcd-lock} (the Lock API on a lease the client keeps alive; the protected set in the run's
 * memory, as Jepsen's {@code lock-set}) and {@code etcd-lock-fenced} (the same lock, the set kept in etcd and written
 * by a transaction conditioned on the lock key's revision, as Jepsen's {@code lock-etcd-set}). The client's session in
 * the history is the lease of its current hold.
 */
public final class EtcdLockFactory extends RecipeFactory {
    /** Renews every etcd client's lease in this JVM; a renewal is one keep-alive request. */
    private static final ScheduledExecutorService RENEWALS = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "lockchaos-etcd-renewal");
        t.setDaemon(true);
        return t;
    });

    private static final int WARM_UP_SECONDS = 30;

    static {
        // bind slf4j once, here, before clients open in parallel: gRPC's first log lines from several threads at
        // once otherwise make slf4j print a warning about calls it replayed
        org.slf4j.LoggerFactory.getILoggerFactory();
    }

    public EtcdLockFactory(LockRecipe recipe) {
        super(recipe, Backend.ETCD);
    }

    @Override
    public Backend backend() {
        return Backend.ETCD;
    }

    /**
     * A jetcd client on the members at {@code endpoints} ({@code host:port}), without retries inside the client (a
     * request that fails is the op's outcome, as in Jepsen's client), its first requests already made: in a fresh JVM
     * they take a second or more (class loading and compilation), which must not eat an acquire's timeout or a first
     * lease's renewals.
     */
    static Client connect(java.util.List<String> endpoints, java.time.Duration connectTimeout) throws Exception {
        Client client = Client.builder().endpoints(endpoints.stream().map(EtcdServers::url).toArray(String[]::new))
                .connectTimeout(connectTimeout).retryMaxAttempts(0).build();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(WARM_UP_SECONDS);
        try {
            while (true) {
                try {
                    client.getKVClient().get(EtcdLock.bytes(EtcdLock.SETS + "/warm-up"))
                            .get(WARM_UP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
                    client.getLeaseClient().timeToLive(0, io.etcd.jetcd.options.LeaseOption.DEFAULT)
                            .get(WARM_UP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
                    break;
                } catch (java.util.concurrent.ExecutionException e) {
                    // a member killed a moment ago may have led: "leader changed" or "no leader" until the rest
                    // elect one, which is not yet anything the client's ops should see
                    if (!unavailable(e) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(100);
                }
            }
        } catch (Exception e) {
            client.close();
            throw e;
        }
        return client;
    }

    private static boolean unavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.grpc.StatusRuntimeException s
                    && s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE) {
                return true;
            }
        }
        return false;
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        Client client = connect(ctx.endpoints(), ctx.connectionTimeout());
        // a request waits as long as a connection may take: Redlock's per-instance timeout (redis_timeout_ms, 100 ms
        // by default) is shorter than a gRPC channel's first connection
        EtcdLock l = new EtcdLock(client, ctx.key(), ctx.lease(), ctx.connectionTimeout(),
                recipe.kind() == LockRecipe.Kind.ETCD_LOCK_FENCED, RENEWALS);
        ctx.session(l::leaseId, () -> null);
        return l;
    }
}
