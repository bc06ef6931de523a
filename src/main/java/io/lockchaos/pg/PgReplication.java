package io.lockchaos.pg;

import java.util.Locale;

/**
 * Whether the PostgreSQL servers of a run are one primary and streaming replicas ({@code pg_replication}), and how a
 * commit waits for them: not at all (asynchronous: a failover loses what the replica had not received), or until a
 * replica has applied it ({@code synchronous_commit = remote_apply}: an acknowledged commit survives the failover).
 */
public enum PgReplication {
    /** One server, no replica. */
    NONE,
    /** Streaming replication; commits do not wait for the replica. */
    ASYNC,
    /** Streaming replication; a commit returns once a replica has applied it. */
    REMOTE_APPLY;

    /** The name workload files use. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a workload file's {@code pg_replication}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static PgReplication parse(String s) {
        for (PgReplication r : values()) {
            if (r.wireName().equals(s)) {
                return r;
            }
        }
        throw new IllegalArgumentException("expected none, async or remote_apply, got '" + s + "'");
    }
}
