package io.lockchaos.api.testlocks;

import io.lockchaos.api.Backend;
import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
                    + " NULL, pid bigint NOT NULL)");
        }
    }

    /** An expiry that never comes: the setting {@code forever} takes rows for good. */
    static final long FOREVER = 4_000_000_000_000_000L;

    /**
     * The rows of the run's keys still taken: for good ({@code left}: a leak, unless their owner still holds them) or
     * until their lease runs out ({@code expiring}). The service's inspection (advisory locks, lockchaos' own lease
     * table) cannot see this table.
     */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        List<LockInspection.Entry> left = new ArrayList<>();
        List<LockInspection.Entry> expiring = new ArrayList<>();
        try (Connection c = connect(ctx); PreparedStatement s = c.prepareStatement("SELECT name, expires_ms, pid FROM"
                + " user_lease WHERE expires_ms > ? AND name = ANY (?)")) {
            s.setLong(1, System.currentTimeMillis());
            s.setArray(2, c.createArrayOf("text", ctx.allKeys().toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    LockInspection.Entry e = new LockInspection.Entry(r.getString(1), "user_lease:" + r.getString(1),
                            r.getLong(3));
                    (r.getLong(2) >= FOREVER ? left : expiring).add(e);
                }
            }
        }
        return new LockInspection(left, expiring);
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
        return new Client(c, ctx.key(), owner, ctx.lease().toMillis(), pid, ctx.settings().containsKey("forever"),
                ctx.settings().containsKey("skip_release"));
    }

    private static final class Client implements LockClient {
        private final Connection c;
        private final String name;
        private final String owner;
        private final long leaseMillis;
        private final long pid;
        private final boolean forever;
        private final boolean skipRelease;
        private volatile long expiresMillis;

        Client(Connection c, String name, String owner, long leaseMillis, long pid, boolean forever,
               boolean skipRelease) {
            this.c = c;
            this.name = name;
            this.owner = owner;
            this.leaseMillis = leaseMillis;
            this.pid = pid;
            this.forever = forever;
            this.skipRelease = skipRelease;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                long now = System.currentTimeMillis();
                long expires = forever ? FOREVER : now + leaseMillis;
                try (PreparedStatement s = c.prepareStatement("INSERT INTO user_lease AS l VALUES (?, ?, ?, ?)"
                        + " ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_ms = EXCLUDED.expires_ms,"
                        + " pid = EXCLUDED.pid WHERE l.expires_ms < ?")) {
                    s.setString(1, name);
                    s.setString(2, owner);
                    s.setLong(3, expires);
                    s.setLong(4, pid);
                    s.setLong(5, now);
                    if (s.executeUpdate() == 1) {
                        expiresMillis = expires;
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
            long e = expiresMillis;
            return e >= FOREVER ? Long.MAX_VALUE : System.nanoTime() + (e - System.currentTimeMillis()) * 1_000_000L;
        }

        @Override
        public Release releaseOutcome(DangerPoint danger) throws Exception {
            if (skipRelease) {
                danger.reach();
                return Release.UNKNOWN; // the setting skip_release: a release that forgets the row and says nothing
            }
            return LockClient.super.releaseOutcome(danger);
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
