package io.lockchaos.cluster;

import java.util.Map;

/** A cluster of a primary and replicas whose replica can take over: PostgreSQL with streaming replication. */
public interface Promotable {
    /**
     * Fails over to replica {@code to}: fences every other server that still runs (kill -9; a fenced server is not
     * started again in this run, as a failover manager would make sure), then promotes {@code to} and waits until it
     * accepts writes.
     *
     * @return what the history records of it (the servers fenced, how far behind the promoted replica was)
     */
    Map<String, Object> failOver(ServerNode to) throws Exception;
}
