package io.lockchaos.pg;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.TransactionalSet;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A transaction-level advisory lock ({@code pg_advisory_xact_lock}) whose holder writes the data it protects in the
 * same transaction: the acquire begins the transaction, the release commits it, and the commit both makes the write
 * durable and frees the lock. A holder whose connection dies loses lock and write together: the server aborts its
 * transaction, so a second holder may be granted the lock while the first still believes it holds it, but the first
 * can no longer write. Not reentrant: a second acquire in the same transaction is refused.
 */
final class XactAdvisoryLock implements LockClient, TransactionalSet {
    /** SQLSTATE lock_not_available: lock_timeout passed. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    static final String CREATE = "CREATE TABLE IF NOT EXISTS lockchaos_set (name text PRIMARY KEY,"
            + " elements bigint[] NOT NULL)";

    private final Connection connection;
    private final long lockId;
    private final String key;
    private final long backendPid;
    private long tries;
    /** Whether a transaction holding the lock is open. */
    private boolean holding;
    /** Whether a statement failed in the open transaction: the server will only roll it back. */
    private boolean aborted;

    XactAdvisoryLock(String address, String key, Duration connectTimeout) throws SQLException {
        this.connection = DriverManager.getConnection(PgServers.url(address, connectTimeout, Duration.ZERO));
        this.key = key;
        this.lockId = AdvisoryLock.idOf(key);
        try (Statement s = connection.createStatement()) {
            try {
                s.execute(CREATE);
            } catch (SQLException e) {
                // IF NOT EXISTS is not safe against a concurrent CREATE: the client that loses finds the table there
                if (!"23505".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) {
                    throw e;
                }
            }
            try (ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
                r.next();
                this.backendPid = r.getLong(1);
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** The server process serving this client: its session, for the history and the final inspection. */
    long backendPid() {
        return backendPid;
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        if (holding) {
            return null; // one transaction, one hold: a lock held in it is not taken twice
        }
        tries++;
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            boolean granted;
            if (timeout.isZero()) {
                try (ResultSet r = s.executeQuery("SELECT pg_try_advisory_xact_lock(" + lockId + ")")) {
                    r.next();
                    granted = r.getBoolean(1);
                }
            } else {
                s.execute("SET LOCAL lock_timeout = " + Math.max(1, timeout.toMillis()));
                try {
                    s.execute("SELECT pg_advisory_xact_lock(" + lockId + ")");
                    granted = true;
                } catch (SQLException e) {
                    if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                        throw e;
                    }
                    granted = false;
                }
            }
            if (!granted) {
                // a timed-out wait that the server granted after all (LockErrorCleanup) goes with the rollback
                endTransaction(false);
                return null;
            }
        } catch (SQLException e) {
            endQuietly();
            throw e;
        }
        holding = true;
        aborted = false;
        long t = tries;
        tries = 0;
        return new Grant("advisory-xact:" + lockId, -1, backendPid, backendPid, -1, -1,
                Map.of("lock", key, "backend_pid", backendPid, "tries", t));
    }

    /** Commits (the write lands and the lock goes), or rolls back a transaction a failed statement aborted. */
    @Override
    public boolean release() throws Exception {
        if (!holding) {
            return false;
        }
        holding = false;
        endTransaction(!aborted);
        return true;
    }

    private void endTransaction(boolean commit) throws SQLException {
        try {
            if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private void endQuietly() {
        try {
            endTransaction(false);
        } catch (SQLException e) {
            // the connection is broken: the server ends the transaction when it notices
        }
    }

    @Override
    public List<Long> readSet(String name) throws Exception {
        try (PreparedStatement s = connection.prepareStatement("SELECT elements FROM lockchaos_set WHERE name = ?")) {
            s.setString(1, name);
            try (ResultSet r = s.executeQuery()) {
                List<Long> out = new ArrayList<>();
                if (r.next()) {
                    for (Object o : (Object[]) r.getArray(1).getArray()) {
                        out.add(((Number) o).longValue());
                    }
                }
                return out;
            }
        } catch (SQLException e) {
            aborted = holding;
            throw e;
        }
    }

    @Override
    public void writeSet(String name, List<Long> elements) throws Exception {
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO lockchaos_set VALUES (?, ?)"
                + " ON CONFLICT (name) DO UPDATE SET elements = EXCLUDED.elements")) {
            Array a = connection.createArrayOf("bigint", elements.toArray());
            s.setString(1, name);
            s.setArray(2, a);
            s.executeUpdate();
        } catch (SQLException e) {
            aborted = holding;
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            connection.close(); // an open transaction is rolled back, its lock freed
        } catch (SQLException e) {
            // a broken connection may fail to close; it is dropped either way
        }
    }
}
