package io.lockchaos.client;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockFactory;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ClusterKind;
import java.util.List;
import java.util.Map;

/**
 * ZooKeeper as a lock service: Curator's recipes and the tutorial's hand-written locks on a raw handle. Its servers
 * are lockchaos' own dependency (nothing to install); the run records the ZooKeeper and Curator versions it ran
 * itself, and reads the lock nodes left at the end on a session of its own.
 */
public final class ZooKeeperService implements LockService {
    @Override
    public Backend backend() {
        return Backend.ZOOKEEPER;
    }

    @Override
    public String servers() {
        return "ZooKeeper server(s)";
    }

    @Override
    public LockFactory factory(LockRecipe recipe) {
        return recipe.curator() ? new CuratorLockFactory(recipe) : new ZooKeeperLockFactory(recipe);
    }

    @Override
    public Cluster start(ServerPlan plan) {
        return null;
    }

    @Override
    public String refusal(ServiceSpec s) {
        return s.firstRefusedFault(f -> !f.kind().movesClocks() ? null : s.cluster() == ClusterKind.CONTAINER
                ? "the clock library moves the clocks of servers this machine starts (cluster local or netns), not"
                + " of containers"
                : ServiceSpec.clockProblem(f));
    }

    @Override
    public boolean takesExistingServers() {
        return true;
    }

    @Override
    public String missing() {
        return null;
    }

    @Override
    public Map<String, String> versions() {
        return Map.of();
    }

    @Override
    public Inspection inspect(String connect, List<String> keys) {
        return null;
    }
}
