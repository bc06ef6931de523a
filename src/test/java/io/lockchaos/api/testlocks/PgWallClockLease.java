package io.lockchaos.api.testlocks;

import io.lockchaos.api.Backend;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/**
 * A user's database lease judged on the client's clock, as it is often hand-written: a row per lock whose expiry the
 * client computes from its own wall clock ({@code expires_at = client now + lease}), taken when the expiry has passed
 * by the taker's wall clock, and held, by the holder's own reckoning, until its wall clock passes it. On PostgreSQL
 * through the client's proxy, with the driver the user's classpath brings.
 */
public final class PgWallClockLease implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    /** The table, made once per run before any client opens (clients opened at once would race to make it). */
    @Override
    public void setUp(LockContext ctx) throws Exception {
        try (Connection c = connect(ctx); var s = c.createStatement()) {
            s.execute("CREATE TABLE user_lease (name text PRIMARY KEY, owner text NOT NULL, expires_ms bigint NOT"
                    + " NULL)");
        }
    }

    private static Connection connect(LockContext ctx) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + String.join(",", ctx.endpoints())
                + "/postgres?user=lockchaos&connectTimeout=5&socketTimeout=5");
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        Connection c = connect(ctx);
        String owner = ctx.process() + "-" + System.nanoTime();
        long pid;
        try (var s = c.createStatement(); var r = s.executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            pid = r.getLong(1);
        }
        ctx.session(() -> pid, () -> null);
        return new Client(c, ctx.key(), owner, ctx.lease().toMillis(), pid);
    }

    private static final class Client implements LockClient {
        private final Connection c;
        private final String name;
        private final String owner;
        private final long leaseMillis;
        private final long pid;
        private volatile long expiresMillis;

        Client(Connection c, String name, String owner, long leaseMillis, long pid) {
            this.c = c;
            this.name = name;
            this.owner = owner;
            this.leaseMillis = leaseMillis;
            this.pid = pid;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long now = System.currentTimeMillis();
                try (PreparedStatement s = c.prepareStatement("INSERT INTO user_lease AS l VALUES (?, ?, ?)"
                        + " ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_ms = EXCLUDED.expires_ms"
                        + " WHERE l.expires_ms < ?")) {
                    s.setString(1, name);
                    s.setString(2, owner);
                    s.setLong(3, now + leaseMillis);
                    s.setLong(4, now);
                    if (s.executeUpdate() == 1) {
                        expiresMillis = now + leaseMillis;
                        return new Grant(name, -1, pid, pid, -1, -1, Map.of("lease_ms", leaseMillis,
                                "expires_ms", expiresMillis));
                    }
                }
                if (System.nanoTime() > deadline) {
                    return null;
                }
                Thread.sleep(10);
            }
        }

        @Override
        public boolean stillHolds() {
            return System.currentTimeMillis() < expiresMillis;
        }

        @Override
        public long validUntilNanos() {
            return System.nanoTime() + (expiresMillis - System.currentTimeMillis()) * 1_000_000L;
        }

        @Override
        public boolean release() throws Exception {
            try (PreparedStatement s = c.prepareStatement("UPDATE user_lease SET expires_ms = 0 WHERE name = ? AND"
                    + " owner = ?")) {
                s.setString(1, name);
                s.setString(2, owner);
                return s.executeUpdate() == 1;
            }
        }

        @Override
        public void close() {
            try {
                c.close();
            } catch (SQLException e) {
                // dropped either way
            }
        }
    }
}
