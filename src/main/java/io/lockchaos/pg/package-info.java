/**
 * The database locks of the tutorial's comparison, on a real PostgreSQL: {@link io.lockchaos.pg.PgServers} (servers
 * as child processes from the machine's binaries, on loopback, dying with the runner), the recipes behind {@link
 * io.lockchaos.pg.PgLockFactory} ({@code pg-advisory}: a session-level advisory lock; {@code pg-advisory-xact}: a
 * transaction-level one that keeps the protected set in its transaction; {@code pg-lease}: a lease row renewed while
 * held, fenced by its version), and {@link io.lockchaos.pg.PgInspection}, what the server still holds at the end of a
 * run. With {@link io.lockchaos.pg.PgReplication} the servers are a primary and streaming replicas, and a failover
 * fences the primary and promotes a replica.
 */
package io.lockchaos.pg;
