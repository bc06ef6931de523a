package io.lockchaos.zookeeper;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.zookeeper.data.Stat;

/** Factories for clients of the other Curator lock recipes; see {@link CuratorMutexClient} for InterProcessMutex. */
public final class CuratorLocks {
    private CuratorLocks() {
    }

    /** Reads the grant of a node this client just acquired. */
    static Grant grant(CuratorFramework client, String node) throws Exception {
        long session = client.getZookeeperClient().getZooKeeper().getSessionId();
        Stat s = node == null ? null : statAfterGrant(client, node);
        return new Grant(node, s == null ? -1 : s.getCzxid(), session, s == null ? 0 : s.getEphemeralOwner(),
                node == null ? -1 : Grant.sequenceOf(node));
    }

    /**
     * The granted node's stat, read even when the thread is interrupted meanwhile: the recipe has granted the lock,
     * so an interrupt now must not make the acquire throw (a lock whose acquire throws InterruptedException holds
     * nothing, and this one would hold on, re-entered by the next acquire: the hunt met it as token regressions and a
     * leaked read lock). The interrupt is kept for the caller.
     */
    static Stat statAfterGrant(CuratorFramework client, String node) throws Exception {
        boolean interrupted = false;
        try {
            for (int tries = 1; ; tries++) {
                try {
                    return client.checkExists().forPath(node);
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (tries == 3) {
                        return null; // the grant stands without its stat
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean exists(CuratorFramework client, String node) throws Exception {
        return node != null && client.checkExists().forPath(node) != null;
    }

    /**
     * InterProcessSemaphoreMutex: not reentrant, and any thread may release. The grant names the lease node the recipe
     * actually holds: it keeps its {@code Lease} private, so it is read from the recipe (the newest lease of this
     * session may belong to an earlier, lost acquire). Where that cannot be read the grant says so (no node) rather
     * than guess.
     */
    public static LockClient semaphoreMutex(CuratorFramework client, String path) {
        InterProcessSemaphoreMutex m = new InterProcessSemaphoreMutex(client, path);
        return new LockClient() {
            private String node;

            @Override
            public Grant acquire(Duration timeout) throws Exception {
                if (!m.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    return null;
                }
                Lease lease = heldLease(m);
                node = lease == null ? null : path + "/leases/" + lease.getNodeName();
                return grant(client, node);
            }

            @Override
            public boolean release() throws Exception {
                return releaseOutcome(() -> { }) != Release.GONE;
            }

            @Override
            public Release releaseOutcome(DangerPoint danger) throws Exception {
                return CheckedRelease.run(() -> exists(client, node), danger, m::release);
            }

            @Override
            public void close() {
            }
        };
    }

    /** The lease an InterProcessSemaphoreMutex holds (its private field {@code lease}), or null. */
    static Lease heldLease(InterProcessSemaphoreMutex m) {
        try {
            java.lang.reflect.Field f = InterProcessSemaphoreMutex.class.getDeclaredField("lease");
            f.setAccessible(true);
            return f.get(m) instanceof Lease l ? l : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** InterProcessSemaphoreV2 with {@code maxLeases}: one lease per acquire; the grant names the lease node. */
    public static LockClient semaphore(CuratorFramework client, String path, int maxLeases) {
        InterProcessSemaphoreV2 sem = new InterProcessSemaphoreV2(client, path, maxLeases);
        return new LockClient() {
            private Lease lease;

            @Override
            public Grant acquire(Duration timeout) throws Exception {
                lease = sem.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
                return lease == null ? null : grant(client, path + "/leases/" + lease.getNodeName());
            }

            @Override
            public boolean release() throws Exception {
                return releaseOutcome(() -> { }) != Release.GONE;
            }

            @Override
            public Release releaseOutcome(DangerPoint danger) throws Exception {
                Lease held = lease;
                lease = null;
                return CheckedRelease.run(() -> exists(client, path + "/leases/" + held.getNodeName()), danger,
                        () -> sem.returnLease(held));
            }

            @Override
            public void close() {
            }
        };
    }

    /** One side (read or write) of an InterProcessReadWriteLock; the write side's {@code readSide} downgrades. */
    public static LockClient readWrite(CuratorFramework client, String path, boolean read) {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path);
        LockClient readSide = side(client, half(rw, "readLock"), null);
        return read ? readSide : side(client, half(rw, "writeLock"), readSide);
    }

    /**
     * {@code readLock()} or {@code writeLock()}, called by name: their return types changed (InterProcessMutex before
     * 5.3.0, ReadLock and WriteLock after), so a direct call compiled against one Curator fails on the other.
     */
    private static InterProcessMutex half(InterProcessReadWriteLock rw, String which) {
        try {
            return (InterProcessMutex) InterProcessReadWriteLock.class.getMethod(which).invoke(rw);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("InterProcessReadWriteLock." + which + "() cannot be called", e);
        }
    }

    private static LockClient side(CuratorFramework client, InterProcessMutex lock, LockClient readSide) {
        return new LockClient() {
            @Override
            public Grant acquire(Duration timeout) throws Exception {
                return lock.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS) ? grant(client, lockPath(lock)) : null;
            }

            @Override
            public boolean release() throws Exception {
                return releaseOutcome(() -> { }) != Release.GONE;
            }

            @Override
            public Release releaseOutcome(DangerPoint danger) throws Exception {
                return CheckedRelease.run(() -> exists(client, lockPath(lock)), danger, lock::release);
            }

            @Override
            public LockClient readSide() {
                return readSide;
            }

            @Override
            public void close() {
            }
        };
    }

    private static final java.lang.reflect.Method LOCK_PATH;

    static {
        try {
            LOCK_PATH = InterProcessMutex.class.getDeclaredMethod("getLockPath");
            LOCK_PATH.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The node a read or write lock holds. Read through InterProcessMutex's own (protected) accessor: the read/write
     * lock's sides made it public only in 5.5.0, and client agents run older versions too.
     */
    static String lockPath(InterProcessMutex lock) {
        try {
            return (String) LOCK_PATH.invoke(lock);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the lock path of " + lock, e);
        }
    }

    /**
     * InterProcessMultiLock over InterProcessMutexes on {@code paths}, acquired in list order. The history op names all
     * keys; the grant carries the first key's node as the recipe made it (its czxid and ephemeral owner).
     */
    public static LockClient multi(CuratorFramework client, List<String> paths) {
        List<CuratorMutexClient.ExposedMutex> mutexes = new java.util.ArrayList<>();
        for (String p : paths) {
            mutexes.add(new CuratorMutexClient.ExposedMutex(client, p));
        }
        InterProcessMultiLock m = new InterProcessMultiLock(new java.util.ArrayList<InterProcessLock>(mutexes));
        return new LockClient() {
            @Override
            public Grant acquire(Duration timeout) throws Exception {
                if (!m.acquire(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    return null;
                }
                return grant(client, mutexes.get(0).path());
            }

            @Override
            public boolean release() throws Exception {
                return releaseOutcome(() -> { }) != Release.GONE;
            }

            @Override
            public Release releaseOutcome(DangerPoint danger) throws Exception {
                return CheckedRelease.run(() -> {
                    boolean present = true;
                    for (CuratorMutexClient.ExposedMutex x : mutexes) {
                        present &= exists(client, x.path());
                    }
                    return present;
                }, danger, m::release);
            }

            @Override
            public void close() {
            }
        };
    }
}
