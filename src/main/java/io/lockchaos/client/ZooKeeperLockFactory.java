package io.lockchaos.client;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.cluster.ZooKeepers;
import java.time.Duration;
import org.apache.zookeeper.ZooKeeper;

/**
 * One of the tutorial's hand-written locks as a {@link LockFactory}: each client on a raw ZooKeeper handle of its own.
 * Like the tutorial's code, it reports no connection states: the lock's parent nodes must exist (the run makes them).
 */
public final class ZooKeeperLockFactory extends RecipeFactory {
    public ZooKeeperLockFactory(LockRecipe recipe) {
        super(recipe, LockRecipe::naive, "a raw ZooKeeper handle");
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        ZooKeeper zk = ZooKeepers.connect(ctx.connectString(), (int) ctx.sessionTimeout().toMillis(),
                Duration.ofSeconds(30));
        ctx.zookeeper(() -> zk);
        return new Closing(recipe.open(zk, ctx.key(), ctx.read()), zk::close);
    }
}
