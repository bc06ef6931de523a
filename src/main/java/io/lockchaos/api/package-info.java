/**
 * The lock-under-test interface, kept small, plain and stable so that a user's lock from the user's own jar runs under
 * the same workloads, faults and checkers as lockchaos' own recipes (which are written against it too). A {@link
 * io.lockchaos.api.LockFactory} says what its lock {@link io.lockchaos.api.Promises promises} and opens one {@link
 * io.lockchaos.api.LockClient} per process from a {@link io.lockchaos.api.LockContext}: the endpoints, already routed
 * through the run's proxies, and where the client reports its connection states and its session. A client whose lock
 * keeps the data it protects (a database lock writing in its own transaction) also implements {@link
 * io.lockchaos.api.TransactionalSet}. A lock on servers lockchaos does not know brings them as {@link
 * io.lockchaos.api.LockServers}: a command per server, which the run starts, kills, pauses and cuts off like its own.
 * Nothing here depends on the rest of lockchaos.
 */
package io.lockchaos.api;
