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

/**
 * The database lock most applications reach for first: a session-level {@code pg_advisory_lock} held by a dedicated
 * connection. The lock lives exactly as long as that server session: a connection the server sees close (a reset, a
 * killed server) drops it at once, while the client, which is told nothing until it next speaks, still believes it
 * holds it. There is no fencing token: the lock's number is the same for every holder.
 */
final class AdvisoryLock implements LockClient {
    /** SQLSTATE lock_not_available: lock_timeout passed. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private final Connection connection;
    private final long lockId;
    private final String key;
    private final long backendPid;
    /** Lock requests since the last grant: one per acquire, as the server queues a blocked one (no polling). */
    private long tries;

    AdvisoryLock(String address, String key, Duration connectTimeout) throws SQLException {
        this.connection = DriverManager.getConnection(PgServers.url(address, connectTimeout, Duration.ZERO));
        this.key = key;
        this.lockId = idOf(key);
        try (Statement s = connection.createStatement(); ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            this.backendPid = r.getLong(1);
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** The advisory lock's number for a key: stable across runs and clients. */
    static long idOf(String key) {
        long h = 1125899906842597L;
        for (int i = 0; i < key.length(); i++) {
            h = 31 * h + key.charAt(i);
        }
        return h;
    }

    /** The server process serving this client: its session, for the history and the final inspection. */
    long backendPid() {
        return backendPid;
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        tries++;
        try (Statement s = connection.createStatement()) {
            // a zero lock_timeout means "wait for ever"; a single try is pg_try_advisory_lock
            if (timeout.isZero()) {
                try (ResultSet r = s.executeQuery("SELECT pg_try_advisory_lock(" + lockId + ")")) {
                    r.next();
                    return r.getBoolean(1) ? grant() : null;
                }
            }
            s.execute("SET lock_timeout = " + Math.max(1, timeout.toMillis()));
            try {
                s.execute("SELECT pg_advisory_lock(" + lockId + ")");
                return grant();
            } catch (SQLException e) {
                if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    return null;
                }
                throw e;
            }
        }
    }

    private Grant grant() {
        long t = tries;
        tries = 0;
        return new Grant("advisory:" + lockId, -1, backendPid, backendPid, -1, -1,
                Map.of("lock", key, "backend_pid", backendPid, "tries", t));
    }

    @Override
    public boolean release() throws Exception {
        try (PreparedStatement s = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            s.setLong(1, lockId);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getBoolean(1); // false: this session did not hold it (a new connection, or never)
            }
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // a broken connection may fail to close; it is dropped either way
        }
    }
}
