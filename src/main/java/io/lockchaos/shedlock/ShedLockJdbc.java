package io.lockchaos.shedlock;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * ShedLock's JdbcTemplate provider on PostgreSQL, configured as its documentation shows, and used as a scheduled job
 * uses it: {@code lock(new LockConfiguration(now, name, lockAtMostFor, lockAtLeastFor))}, run the job, {@code
 * unlock()}.
 *
 * <p>ShedLock promises that a job runs on one node at a time as long as the job ends within {@code lockAtMostFor}
 * (the run's {@code lease_ms}, else {@link LockContext#lease}): the row's {@code lock_until}. The job cannot ask
 * whether it still holds the lock, so this client never stops a hold by itself ({@link #stillHolds} is true until the
 * release), as a job does not. By default {@code lock_until} is computed and compared on the application's clock; the
 * setting {@code using_db_time} ({@code usingDbTime()}) moves both to the database's. ShedLock's unlock returns
 * nothing, so a release is recorded as done without claiming the lock was still held.
 *
 * <p>Settings ({@code lock_settings}): {@code using_db_time} (default false), {@code lock_at_least_for_ms} (default
 * 0), {@code locked_by} (default: the host's name and the process, as nodes of a cluster differ; {@code hostname}:
 * ShedLock's own default, the same for every client on this machine).
 *
 * <p>This class imports only {@code io.lockchaos.api}, ShedLock, the JDBC driver and the Spring JDBC and transaction
 * classes the provider takes and throws: it is written as a user writes a lock, and its classes run against the ShedLock release the run
 * names.
 */
public final class ShedLockJdbc implements LockFactory {
    /** The table ShedLock's documentation gives for PostgreSQL. */
    static final String TABLE = "CREATE TABLE IF NOT EXISTS shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP"
            + " NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))";

    @Override
    public Promises promises() {
        return Promises.exclusive().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    @Override
    public void setUp(LockContext ctx) throws Exception {
        ShedLockClient.atLeast(ctx); // a bad setting stops the run here, in one line, before any client opens
        try (Connection c = dataSource(ctx).getConnection(); Statement s = c.createStatement()) {
            s.execute(TABLE);
        }
    }

    /** Rows of the run's keys whose {@code lock_until} has not passed: each ends by itself, so none is a leak. */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        List<LockInspection.Entry> expiring = new ArrayList<>();
        boolean dbTime = flag(ctx, "using_db_time");
        try (Connection c = dataSource(ctx).getConnection(); PreparedStatement s = c.prepareStatement("SELECT name,"
                + " lock_until, lock_until > timezone('utc', CURRENT_TIMESTAMP) FROM shedlock WHERE name = ANY (?)")) {
            s.setArray(1, c.createArrayOf("varchar", ctx.allKeys().toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    boolean running = dbTime ? r.getBoolean(3) : r.getTimestamp(2).toInstant().isAfter(Instant.now());
                    if (running) {
                        expiring.add(new LockInspection.Entry(r.getString(1), "shedlock:" + r.getString(1), 0));
                    }
                }
            }
        }
        return new LockInspection(List.of(), expiring);
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        JdbcTemplateLockProvider.Configuration.Builder b = JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(dataSource(ctx)))
                .withTableName("shedlock");
        String lockedBy = ctx.settings().getOrDefault("locked_by", "");
        if (!lockedBy.equals("hostname")) {
            b.withLockedByValue(lockedBy.isEmpty() ? hostName() + "-p" + ctx.process() : lockedBy);
        }
        if (flag(ctx, "using_db_time")) {
            b.usingDbTime();
        }
        Duration atLeast = ShedLockClient.atLeast(ctx);
        JdbcTemplateLockProvider provider = new JdbcTemplateLockProvider(b.build());
        return new ShedLockClient(c -> {
            try {
                return provider.lock(c);
            } catch (CannotCreateTransactionException e) {
                return Optional.empty(); // no connection, so no statement was sent: certainly not locked
            }
        }, ctx.key(), ctx.leaseAsked().orElse(ctx.lease()), atLeast, () -> { }); // a connection per statement
    }

    private static boolean flag(LockContext ctx, String name) {
        return Boolean.parseBoolean(ctx.settings().getOrDefault(name, "false"));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /**
     * A connection per statement, as a pool gives one and takes it back: through the client's proxy, so cuts reach
     * it, and never waiting more than 5 s for an answer (a pool's socket timeout), after which the outcome is unknown.
     */
    private static DataSource dataSource(LockContext ctx) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL("jdbc:postgresql://" + String.join(",", ctx.endpoints()) + "/postgres");
        ds.setUser("lockchaos");
        ds.setConnectTimeout(5);
        ds.setSocketTimeout(5);
        return ds;
    }
}
