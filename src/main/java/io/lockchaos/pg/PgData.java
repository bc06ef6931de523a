package io.lockchaos.pg;

import io.lockchaos.api.TransactionalSet;
import io.lockchaos.client.DataConnection;
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

/**
 * The protected data in a PostgreSQL table, written as an application following the tutorial writes it: one row per
 * set, its elements in an array that a critical section reads in its transaction and writes back whole, so that two
 * holders at once lose one's add (the second write replaces the first). A fenced write carries the holder's token in
 * the row and is refused when the row's is higher: the in-memory register's rule ({@code fence <= token}), in SQL; a
 * claiming read raises the row's fence to the token before it reads, so that no lower token writes after it.
 */
final class PgData implements DataConnection {
    static final String CREATE = "CREATE TABLE IF NOT EXISTS lockchaos_data (name text PRIMARY KEY,"
            + " elements bigint[] NOT NULL, fence bigint NOT NULL)";
    private static final String WRITE = "INSERT INTO lockchaos_data AS d VALUES (?, ?, ?) ON CONFLICT (name)"
            + " DO UPDATE SET elements = EXCLUDED.elements, fence = GREATEST(d.fence, EXCLUDED.fence)";
    /** The same write, refused (no row changed) where a higher token wrote before. */
    private static final String FENCED_WRITE = WRITE + " WHERE d.fence <= EXCLUDED.fence";
    private static final String READ = "SELECT elements FROM lockchaos_data WHERE name = ?";
    /**
     * A read that claims the row for a token first (made when missing): its fence rises to the token, and the row
     * locked until the transaction ends, unless a higher token has claimed or written it (no row returned).
     */
    private static final String CLAIM = "INSERT INTO lockchaos_data AS d VALUES (?, '{}', ?) ON CONFLICT (name)"
            + " DO UPDATE SET fence = EXCLUDED.fence WHERE d.fence <= EXCLUDED.fence RETURNING d.elements";

    private final String address;
    private final Duration timeout;
    private Connection connection;

    PgData(String address, Duration timeout) {
        this.address = address;
        this.timeout = timeout;
    }

    private Connection connection() throws SQLException {
        if (connection != null && !connection.isClosed()) {
            return connection;
        }
        close();
        Connection c = DriverManager.getConnection(PgServers.url(address, timeout, timeout));
        try {
            try (Statement s = c.createStatement()) {
                s.execute(CREATE);
            } catch (SQLException e) {
                // IF NOT EXISTS is not safe against a concurrent CREATE: the client that loses finds the table there
                if (!"23505".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) {
                    throw e;
                }
            }
            c.setAutoCommit(false);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        connection = c;
        return c;
    }

    @Override
    public List<Long> read(String name, long claim) throws Exception {
        try {
            return readOnce(name, claim);
        } catch (SQLException e) {
            // a connection that broke while idle (a reset, a cut that ended) says so only now: nothing ran in its
            // transaction yet, so the read is tried once more on a new one; one that waited out its timeout is not
            if (e.getSQLState() == null || !e.getSQLState().startsWith("08") || timedOut(e)) {
                throw e;
            }
            return readOnce(name, claim);
        }
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private List<Long> readOnce(String name, long claim) throws Exception {
        try {
            Connection c = connection();
            c.rollback(); // what a critical section that stopped left open
            try (PreparedStatement s = c.prepareStatement(claim >= 0 ? CLAIM : READ)) {
                s.setString(1, name);
                if (claim >= 0) {
                    s.setLong(2, claim);
                }
                try (ResultSet r = s.executeQuery()) {
                    if (claim >= 0 && !r.next()) {
                        rollbackQuietly(c);
                        throw new TransactionalSet.Rejected("the row's fence is above token " + claim);
                    }
                    List<Long> out = new ArrayList<>();
                    if (claim >= 0 || r.next()) {
                        for (Object o : (Object[]) r.getArray(1).getArray()) {
                            out.add(((Number) o).longValue());
                        }
                    }
                    return out;
                }
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    @Override
    public void write(String name, List<Long> elements, long fence, Runnable beforeCommit) throws Exception {
        Connection c = connection;
        if (c == null) {
            throw new TransactionalSet.NotWritten("no transaction: the read did not connect", null);
        }
        int changed;
        try (PreparedStatement s = c.prepareStatement(fence >= 0 ? FENCED_WRITE : WRITE)) {
            Array a = c.createArrayOf("bigint", elements.toArray());
            s.setString(1, name);
            s.setArray(2, a);
            s.setLong(3, fence);
            changed = s.executeUpdate();
        } catch (SQLException e) {
            close(); // the server rolls the transaction back
            throw new TransactionalSet.NotWritten(e.getMessage(), e);
        }
        if (changed == 0) {
            rollbackQuietly(c);
            throw new TransactionalSet.Rejected("the row's fence is above token " + fence);
        }
        beforeCommit.run();
        try {
            c.commit();
        } catch (SQLException e) {
            close(); // the COMMIT was sent: whether it took, only a later read can say
            throw e;
        }
    }

    @Override
    public void abandon() {
        if (connection != null) {
            rollbackQuietly(connection);
        }
    }

    private void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            close();
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // a broken connection may fail to close; it is dropped either way
            }
            connection = null;
        }
    }
}
