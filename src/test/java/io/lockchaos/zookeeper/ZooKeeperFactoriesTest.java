package io.lockchaos.zookeeper;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.lockchaos.api.Backend;
import io.lockchaos.client.LockRecipe;
import java.util.Arrays;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/** ZooKeeper's two factories each open only the recipes of their own session kind: Curator's, or a raw handle's. */
class ZooKeeperFactoriesTest {
    @Test
    void aClientIsOpenedOnlyOnTheSessionKindItsRecipeNeeds() {
        List<LockRecipe> recipes = Arrays.stream(LockRecipe.Kind.values()).filter(k -> k != LockRecipe.Kind.USER)
                .map(k -> k == LockRecipe.Kind.SEMAPHORE ? LockRecipe.semaphore(3) : LockRecipe.of(k))
                .filter(r -> r.backend() == Backend.ZOOKEEPER).toList();
        for (LockRecipe r : recipes) {
            if (r.naive()) {
                assertThrows(IllegalStateException.class, () -> CuratorLockFactory.open(r, (CuratorFramework) null,
                        null));
                assertThrows(IllegalArgumentException.class, () -> new CuratorLockFactory(r));
            } else {
                assertThrows(IllegalStateException.class, () -> ZooKeeperLockFactory.open(r, (ZooKeeper) null, "/k",
                        false));
                assertThrows(IllegalArgumentException.class, () -> new ZooKeeperLockFactory(r));
            }
        }
    }
}
