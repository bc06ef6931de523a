package io.lockchaos.zookeeper;

import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.client.Closing;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.RecipeFactory;
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
        return new Closing(open(recipe, zk, ctx.key(), ctx.read()), zk::close);
    }

    /**
     * A client of hand-written lock {@code recipe} on the raw session {@code zk}.
     *
     * @throws IllegalStateException for Curator's recipes
     */
    static LockClient open(LockRecipe recipe, ZooKeeper zk, String key, boolean read) {
        return switch (recipe.kind()) {
            case NAIVE_EXCLUSIVE -> new NaiveExclusiveLock(zk, key, "res");
            case NAIVE_RW -> new NaiveReadWriteLock(zk, key, "res", read);
            case NAIVE_HERD -> new NaiveHerdLock(zk, key, "res", false);
            case NAIVE_QUEUE -> new NaiveHerdLock(zk, key, "res", true);
            default -> throw new IllegalStateException(recipe.wireName() + " is a Curator recipe, not one of the tutorial's");
        };
    }
}
