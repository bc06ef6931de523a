package io.lockchaos.pg;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.RecipeFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The database locks of the tutorial's comparison, each on a connection of its own to the server (through the
 * client's proxy): {@code pg-advisory} (a session-level advisory lock), {@code pg-advisory-xact} (a
 * transaction-level one, the protected set written in its transaction) and {@code pg-lease} (a lease row renewed while
 * held, whose version fences). The client's session, for the history and the inspection, is its server process id.
 */
public final class PgLockFactory extends RecipeFactory {
    /** Renews every lease client's row in this JVM; a renewal is one short UPDATE. */
    private static final ScheduledExecutorService RENEWALS = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "lockchaos-pg-renewal");
        t.setDaemon(true);
        return t;
    });

    public PgLockFactory(LockRecipe recipe) {
        super(recipe, Backend.POSTGRES);
    }

    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        // with replicas, the driver finds the primary among all of them (each through the client's proxy)
        String address = String.join(",", ctx.endpoints());
        if (recipe.kind() == LockRecipe.Kind.PG_LEASE) {
            // no server session lasts as long as the lease: the client's id stands for one, as on Redis
            long id = new java.util.SplittableRandom().nextLong() & Long.MAX_VALUE;
            LeaseLock l = new LeaseLock(address, ctx.key(), id, ctx.lease(), ctx.connectionTimeout(), RENEWALS);
            ctx.session(() -> id, () -> null);
            return l;
        }
        if (recipe.kind() == LockRecipe.Kind.PG_ADVISORY_XACT) {
            XactAdvisoryLock l = new XactAdvisoryLock(address, ctx.key(), ctx.connectionTimeout());
            long pid = l.backendPid();
            ctx.session(() -> pid, () -> null);
            return l;
        }
        AdvisoryLock l = new AdvisoryLock(address, ctx.key(), ctx.connectionTimeout());
        long pid = l.backendPid();
        ctx.session(() -> pid, () -> null);
        return l;
    }
}
