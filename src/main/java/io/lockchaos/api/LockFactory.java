package io.lockchaos.api;

/**
 * A lock under test, as its author gives it to lockchaos: what it promises, what it runs on, and how one process opens
 * a client of it. A run calls {@link #open} once per process (a new process after every indeterminate op, as Jepsen
 * does) and drives that client from one thread; the client's {@link LockClient#close} must end everything it opened.
 *
 * <p>A factory in the user's own jar is named with {@code --lock-class} and runs in client agents (child JVMs whose
 * classpath is the user's {@code --lock-jar} and lockchaos' own classes): it needs a public no-argument constructor.
 * lockchaos' own recipes are factories too.
 */
public interface LockFactory {
    /** What the lock promises; this decides the checkers. */
    Promises promises();

    /** The servers the lock runs on (default: ZooKeeper). */
    default Backend backend() {
        return Backend.ZOOKEEPER;
    }

    /**
     * The servers the lock brings of its own, started and broken by the run as its child processes: needed when
     * {@link #backend} is {@link Backend#OWN}, unused otherwise (default null).
     */
    default LockServers servers() {
        return null;
    }

    /**
     * Opens a client for one process: connects through {@code context}'s endpoints (which pass through lockchaos'
     * proxies, so network faults reach it), reports its session and connection states to {@code context}, and returns
     * the client. An exception here is a failed open: the run stops with its message.
     */
    LockClient open(LockContext context) throws Exception;

    /**
     * Prepares what every client of the run shares (a table, a schema, a bucket), once per run, before any client
     * opens: clients opened at once would otherwise race to create it. {@code context} is the first process's (its
     * servers, key, every key and {@code settings()}); states it reports are not recorded. An exception here stops
     * the run with its message. By default nothing is done.
     */
    default void setUp(LockContext context) throws Exception {
    }

    /**
     * What the lock's own storage still holds of the run's keys ({@code context.allKeys()}) after the final probes,
     * for the leak checker; null, the default, leaves the inspection to the lock service's own (ZooKeeper's nodes,
     * PostgreSQL's advisory locks and lockchaos' lease rows, Redis' keys, etcd's keys), which cannot see a lock kept
     * in a table or key of your own. Called once, in the first client agent. An exception is recorded as an
     * inspection cut short.
     */
    default LockInspection inspect(LockContext context) throws Exception {
        return null;
    }
}
