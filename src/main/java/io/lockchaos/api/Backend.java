package io.lockchaos.api;

/** The servers a lock runs on: what a run starts, puts behind its proxies and breaks. */
public enum Backend {
    /** A ZooKeeper ensemble; {@link LockContext#connectString} is a ZooKeeper connect string. */
    ZOOKEEPER,
    /** Independent Redis instances; {@link LockContext#endpoints} lists one {@code host:port} per instance. */
    REDIS,
    /** A PostgreSQL server; {@link LockContext#endpoints} has its {@code host:port} (user lockchaos, trust). */
    POSTGRES,
    /** An etcd cluster; {@link LockContext#endpoints} lists one {@code host:port} client address per member. */
    ETCD,
    /**
     * A Hazelcast cluster named {@code lockchaos}; {@link LockContext#endpoints} lists one {@code host:port} per member
     * (clients should dial only those: the members' own addresses are not behind the run's proxies).
     */
    HAZELCAST,
    /**
     * The lock's own servers, which its factory describes ({@link LockFactory#servers}) and lockchaos starts, kills,
     * pauses and cuts as child processes; {@link LockContext#endpoints} lists one {@code host:port} per server.
     */
    OWN
}
