package io.lockchaos.zookeeper;

import io.lockchaos.cluster.Roles;
import io.lockchaos.cluster.ServerNode;

/** ZooKeeper's servers say whether they lead when asked with a four-letter word ({@code srvr}). */
interface FourLetterRoles extends Roles {
    @Override
    default String role(ServerNode n, int timeoutMillis) {
        return FourLetterWords.mode(n, timeoutMillis).orElse("down");
    }
}
