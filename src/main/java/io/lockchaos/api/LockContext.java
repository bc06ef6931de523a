package io.lockchaos.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What one process's lock client is given by the run, and how it tells the run what it sees. Calls to the reporting
 * methods may come from any thread (a connection-state listener's, typically).
 */
public interface LockContext {
    /** The state {@link #revoked} is recorded as. */
    String REVOKED = "REVOKED";

    /** The servers as one connect string ({@code host:port,host:port}), each address routed through a proxy. */
    String connectString();

    /** The same servers, one {@code host:port} each, in order. */
    List<String> endpoints();

    /**
     * Each server's own address ({@code host:port}, as servers name themselves to clients: a Sentinel's answer for
     * the primary, a cluster's list of members) mapped to this client's way to that server, through its proxy ({@link
     * #endpoints}); empty when the run does not know them. A client whose servers hand out addresses maps them through
     * this (Redisson's {@code NatMapper}), so that what it dials next still passes the proxies the faults act on.
     */
    default Map<String, String> routes() {
        return Map.of();
    }

    /** The lock's name: a ZooKeeper path for ZooKeeper locks ({@code /lockchaos/lock-0}), a key for Redis. */
    String key();

    /** Every lock name of the run, for a lock that takes them all at once. */
    List<String> allKeys();

    /** For a read/write lock, whether this process takes the read side. */
    boolean read();

    /** The process this client is opened for (a worker's process number changes after an indeterminate op). */
    int process();

    /** The session timeout the run asks for. */
    Duration sessionTimeout();

    /** How long a connection attempt may take. */
    Duration connectionTimeout();

    /** For a leased lock, the lease the run asks for: 10 s when it asks for none (see {@link #leaseAsked}). */
    Duration lease();

    /**
     * The lease the run asks for ({@code lease_ms}), or empty when the workload names none: a lock whose library has
     * a lease of its own (ShedLock's {@code lockAtMostFor}) keeps it then, rather than take the 10 s {@link #lease}
     * gives.
     */
    default Optional<Duration> leaseAsked() {
        return Optional.of(lease());
    }

    /** For a lock on several instances, how long one instance may take to answer. */
    Duration requestTimeout();

    /**
     * The workload's {@code lock_settings}: names and values (as text) for a lock of your own to read as it likes, so
     * that one factory serves every option (ShedLock's {@code usingDbTime}, a library's lease) instead of a subclass
     * per option; empty when the workload gives none.
     */
    default Map<String, String> settings() {
        return Map.of();
    }

    /**
     * Reports a connection state ({@code CONNECTED}, {@code SUSPENDED}, {@code LOST}, {@code RECONNECTED}, or any
     * name of the lock's own) about the session {@code session}: it is recorded in the history for this process.
     * The run's client mode ({@code client_mode}) decides whether a holder stops on it; a lock that decides itself
     * answers {@link LockClient#stillHolds} instead.
     */
    void state(String state, long session);

    /** Reports a connection state about the current session. */
    void state(String state);

    /**
     * Says that the lock was taken from this client now by the library's own word, not by a release: a leader
     * election's callback that revokes leadership (Curator's {@code notLeader}, a {@code takeLeadership} interrupted
     * on SUSPENDED). The history records it as the state {@value #REVOKED} with {@code why}, and the hold ends there
     * for the checkers, certainly; the run's worker stops acting as the holder, does not release, and its next
     * acquire waits for the lock again. Make {@link LockClient#stillHolds} false before calling this, so that a
     * grant the client is still returning is not taken for a live one.
     */
    void revoked(String why);

    /**
     * Says where the client's current session id (0 for none) and password (null for none) are found: the history
     * names the session, and the nemesis expires it on the server by id and password.
     */
    void session(LongSupplier id, Supplier<byte[]> password);

    /**
     * Says where the client's current ZooKeeper handle is found (it may change after an expiry): the nemesis expires
     * the handle's own session (0 while it has none) on the server, or makes the client alone believe it expired.
     * The history names the session {@link #session} gives, else the handle's.
     */
    void zookeeper(Supplier<org.apache.zookeeper.ZooKeeper> handle);

    /** The process's place to keep state between its calls; lockchaos never reads it. */
    Map<String, Object> attributes();
}
