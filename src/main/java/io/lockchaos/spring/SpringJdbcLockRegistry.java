package io.lockchaos.spring;

import io.lockchaos.api.Backend;
import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockInspection;
import io.lockchaos.api.Promises;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.util.UUIDConverter;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * Spring Integration's {@code JdbcLockRegistry} on PostgreSQL, set up as its reference manual shows outside a Spring
 * context: a {@code DefaultLockRepository} per process (its own client id), {@code registry.obtain(key)}, {@code
 * tryLock(timeout)}, {@code unlock()}.
 *
 * <p>A lock is a row of {@code INT_LOCK} whose {@code CREATED_DATE} is written and judged on the application's clock
 * (UTC): another client takes it once it is older than the time to live ({@code lease_ms}, else the repository's 10
 * s), unless its holder renews it, which only the holding thread can do ({@code renewLock}); the worker's job does not.
 * The job cannot ask whether the row is still its own, so this client never stops a hold by itself. The unlock deletes
 * the row only where it still names this client, and throws when it is gone ("Lock was released in the store due to
 * expiration"): a release that says whether the lock was still held.
 *
 * <p>This class imports only {@code io.lockchaos.api}, Spring Integration and the Spring and JDBC classes its API
 * takes: it is written as a user writes a lock, against the release the run names.
 */
public final class SpringJdbcLockRegistry implements LockFactory {
    /**
     * Spring Integration's own schema-postgresql.sql, for the lock table: 6.x's, with 7.x's {@code EXPIRED_AFTER}
     * (NOT NULL there) as a column that may be null, which 6.x never names and 7.x always writes, so that the recipe
     * runs on either.
     */
    static final String TABLE = "CREATE TABLE IF NOT EXISTS INT_LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100)"
            + " NOT NULL, CLIENT_ID CHAR(36), CREATED_DATE TIMESTAMP NOT NULL, EXPIRED_AFTER TIMESTAMP,"
            + " constraint INT_LOCK_PK primary key (LOCK_KEY, REGION))";
    /** The registry's default pause between tries, kept between tries that found no connection. */
    private static final long IDLE_MILLIS = 100;
    /** The repository's default time to live, when the run names no lease. */
    private static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.POSTGRES;
    }

    @Override
    public void setUp(LockContext ctx) throws Exception {
        try (Connection c = dataSource(ctx).getConnection(); Statement s = c.createStatement()) {
            s.execute(TABLE);
        }
    }

    /** Rows of the run's keys not yet older than the time to live: each ends by itself, so none is a leak. */
    @Override
    public LockInspection inspect(LockContext ctx) throws Exception {
        Map<String, String> keyOfRow = new LinkedHashMap<>();
        for (String k : ctx.allKeys()) {
            keyOfRow.put(UUIDConverter.getUUID(k).toString(), k);
        }
        List<LockInspection.Entry> expiring = new ArrayList<>();
        LocalDateTime oldest = LocalDateTime.now(ZoneOffset.UTC).minus(ttl(ctx));
        try (Connection c = dataSource(ctx).getConnection(); PreparedStatement s = c.prepareStatement("SELECT LOCK_KEY,"
                + " CREATED_DATE FROM INT_LOCK WHERE REGION = 'DEFAULT' AND LOCK_KEY = ANY (?)")) {
            s.setArray(1, c.createArrayOf("bpchar", keyOfRow.keySet().toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Timestamp created = r.getTimestamp(2);
                    if (!created.toLocalDateTime().isBefore(oldest)) {
                        expiring.add(new LockInspection.Entry(keyOfRow.get(r.getString(1)), "INT_LOCK:"
                                + r.getString(1), 0));
                    }
                }
            }
        }
        return new LockInspection(List.of(), expiring);
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        DataSource ds = dataSource(ctx);
        String clientId = UUID.randomUUID().toString();
        DefaultLockRepository repository = new DefaultLockRepository(ds, clientId);
        repository.setTimeToLive((int) ttl(ctx).toMillis());
        repository.setTransactionManager(new DataSourceTransactionManager(ds));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        return new Client(repository, new JdbcLockRegistry(repository), ctx.key(), clientId, ttl(ctx));
    }

    private static Duration ttl(LockContext ctx) {
        return ctx.leaseAsked().orElse(DEFAULT_TTL);
    }

    /**
     * A connection per transaction, as a pool lends one: through the client's proxy, so cuts reach it, and never
     * waiting more than 5 s for an answer, after which the outcome is unknown.
     */
    private static DataSource dataSource(LockContext ctx) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL("jdbc:postgresql://" + String.join(",", ctx.endpoints()) + "/postgres");
        ds.setUser("lockchaos");
        ds.setConnectTimeout(5);
        ds.setSocketTimeout(5);
        return ds;
    }

    private static final class Client implements LockClient {
        private final DefaultLockRepository repository;
        private final JdbcLockRegistry registry;
        private final String name;
        private final String clientId;
        private final Duration ttl;
        private Lock held;

        Client(DefaultLockRepository repository, JdbcLockRegistry registry, String name, String clientId,
               Duration ttl) {
            this.repository = repository;
            this.registry = registry;
            this.name = name;
            this.clientId = clientId;
            this.ttl = ttl;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            Lock lock = registry.obtain(name);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                try {
                    long left = Math.max(0, deadline - System.nanoTime());
                    if (!lock.tryLock(left, TimeUnit.NANOSECONDS)) {
                        return null;
                    }
                    break;
                } catch (CannotAcquireLockException e) {
                    if (!(e.getCause() instanceof CannotCreateTransactionException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(IDLE_MILLIS); // no connection, so no statement was sent: certainly not locked
                }
            }
            held = lock;
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("ttl_ms", ttl.toMillis());
            facts.put("client_id", clientId);
            return Grant.leased(name, 0, facts); // no session: a row outlives its connection
        }

        @Override
        public Release releaseOutcome(DangerPoint danger) throws Exception {
            danger.reach();
            Lock lock = held;
            held = null;
            try {
                lock.unlock();
                return Release.HELD;
            } catch (ConcurrentModificationException e) {
                return Release.GONE; // the row had expired and another client had taken it
            }
        }

        @Override
        public boolean release() {
            throw new UnsupportedOperationException("see releaseOutcome");
        }

        @Override
        public void close() {
            try {
                repository.close(); // what the bean does at shutdown: deletes this client's rows
            } catch (RuntimeException e) {
                // a client cut off cannot; its rows expire
            }
        }
    }
}
