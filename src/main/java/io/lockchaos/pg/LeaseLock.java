package io.lockchaos.pg;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The common hand-written database lease: a row per lock in {@code lockchaos_lease} with its owner, an expiry on the
 * server's clock and a version that grows with every grant (the fencing token). A client takes the row when it is
 * free or expired, renews it every third of the lease while it holds it, and believes it holds the lock until its own
 * clock says the lease, counted from the start of its last successful renewal, has run out. A release expires the row
 * rather than deleting it, so that versions never restart.
 */
final class LeaseLock implements LockClient {
    static final String CREATE = "CREATE TABLE IF NOT EXISTS lockchaos_lease (name text PRIMARY KEY, owner text NOT"
            + " NULL, version bigint NOT NULL, expires_at timestamptz NOT NULL)";

    private final Connection connection;
    private final String key;
    private final long id;
    private final String owner;
    private final long leaseMillis;
    private final ScheduledExecutorService renewals;
    private volatile long version = -1;
    private volatile boolean held;
    private volatile long validUntil = System.nanoTime();
    private ScheduledFuture<?> renewing;
    /** Takes tried since the last grant: a waiter polls the row every 20 ms. */
    private long tries;

    LeaseLock(String address, String key, long id, Duration lease, Duration connectTimeout,
              ScheduledExecutorService renewals) throws SQLException {
        this.connection = DriverManager.getConnection(PgServers.url(address, connectTimeout,
                Duration.ofMillis(Math.max(1000, lease.toMillis() / 2))));
        this.key = key;
        this.id = id;
        this.owner = Long.toString(id);
        this.leaseMillis = lease.toMillis();
        this.renewals = renewals;
        try (Statement s = connection.createStatement()) {
            s.execute(CREATE);
        } catch (SQLException e) {
            // every client creates the table as it opens, and IF NOT EXISTS is not safe against a concurrent CREATE:
            // the one that loses finds the table there
            if (!"23505".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) {
                close();
                throw e;
            }
        }
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long sent = System.nanoTime();
            tries++;
            Long v = take();
            if (v != null) {
                version = v;
                validUntil = sent + leaseMillis * 1_000_000L;
                held = true;
                synchronized (this) {
                    renewing = renewals.scheduleWithFixedDelay(this::renew, leaseMillis / 3, leaseMillis / 3,
                            TimeUnit.MILLISECONDS);
                }
                long t = tries;
                tries = 0;
                return new Grant(key, v, id, id, -1, -1, Map.of("version", v, "lease_ms", leaseMillis, "tries", t));
            }
            if (System.nanoTime() >= deadline) {
                return null;
            }
            Thread.sleep(20);
        }
    }

    /** Takes the row when it is free or expired; the new version, or null when someone else holds it. */
    private synchronized Long take() throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO lockchaos_lease AS l VALUES (?, ?, 1, now()"
                + " + ? * interval '1 millisecond') ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, version ="
                + " l.version + 1, expires_at = excluded.expires_at WHERE l.expires_at < now() RETURNING version")) {
            s.setString(1, key);
            s.setString(2, owner);
            s.setLong(3, leaseMillis);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getLong(1) : null;
            }
        }
    }

    /** Extends the lease; a renewal that fails or finds the row taken leaves the validity to run out. */
    private void renew() {
        if (!stillHolds()) {
            stopRenewing(); // given up by its own clock: a renewal now would hold the row for a client that stopped
            return;
        }
        long sent = System.nanoTime();
        try {
            int n;
            synchronized (this) {
                if (!held) {
                    return; // released while this renewal waited: a renewal now would take the row back
                }
                n = expireAt("now() + " + leaseMillis + " * interval '1 millisecond'");
            }
            if (n == 1) {
                validUntil = sent + leaseMillis * 1_000_000L;
            }
        } catch (SQLException e) {
            // the connection is cut or the server gone: the lease runs out on its own
        }
    }

    private synchronized void stopRenewing() {
        if (renewing != null) {
            renewing.cancel(false);
            renewing = null;
        }
    }

    @Override
    public boolean stillHolds() {
        return held && System.nanoTime() - validUntil < 0;
    }

    @Override
    public long validUntilNanos() {
        return validUntil;
    }

    @Override
    public boolean release() throws Exception {
        stopRenewing();
        synchronized (this) {
            held = false;
            // the row stays, expired, with its version: a deleted row would start again at version 1, and the
            // next holder's token would be lower than this one's
            return expireAt("'-infinity'") == 1; // 0: the lease ran out (another may have the row), or not ours
        }
    }

    /**
     * Sets this holder's row to expire at {@code when} (an SQL expression of this class's own), if the row is still
     * this grant's and not yet expired; the rows changed (0 or 1).
     */
    private synchronized int expireAt(String when) throws SQLException {
        try (PreparedStatement s = connection.prepareStatement("UPDATE lockchaos_lease SET expires_at = " + when
                + " WHERE name = ? AND owner = ? AND version = ? AND expires_at > now()")) {
            s.setString(1, key);
            s.setString(2, owner);
            s.setLong(3, version);
            return s.executeUpdate();
        }
    }

    @Override
    public void close() {
        stopRenewing();
        try {
            connection.close();
        } catch (SQLException e) {
            // a broken connection may fail to close; it is dropped either way
        }
    }
}
