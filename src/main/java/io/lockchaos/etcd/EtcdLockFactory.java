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
        super(recipe, LockRecipe.Backend.ETCD);
    }

    @Override
    public Backend backend() {
        return Backend.ETCD;
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        String[] urls = ctx.endpoints().stream().map(EtcdServers::url).toArray(String[]::new);
        // no retries inside the client: a request that fails is the op's outcome (info), as in Jepsen's client
        Client client = Client.builder().endpoints(urls).connectTimeout(ctx.connectionTimeout())
                .retryMaxAttempts(0).build();
        // a request waits as long as a connection may take: Redlock's per-instance timeout (100 ms by default) is
        // shorter than a gRPC channel's first connection
        try {
            // the first requests of a JVM's gRPC stack take a second or more (class loading and compilation): made
            // here, before any op is recorded, they cannot eat an acquire's timeout or a first lease's renewals
            client.getKVClient().get(EtcdLock.bytes(EtcdLock.SETS + "/warm-up"))
                    .get(WARM_UP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            client.getLeaseClient().timeToLive(0, io.etcd.jetcd.options.LeaseOption.DEFAULT)
                    .get(WARM_UP_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            client.close();
            throw e;
        }
        EtcdLock l = new EtcdLock(client, ctx.key(), ctx.lease(), ctx.connectionTimeout(),
                recipe.kind() == LockRecipe.Kind.ETCD_LOCK_FENCED, RENEWALS);
        ctx.session(l::leaseId, () -> null);
        return l;
    }
}
