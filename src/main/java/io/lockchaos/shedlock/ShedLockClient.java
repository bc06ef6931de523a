package io.lockchaos.shedlock;

import io.lockchaos.api.DangerPoint;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A job's use of any ShedLock provider: {@code lock(new LockConfiguration(now, name, lockAtMostFor,
 * lockAtLeastFor))}, tried again every 50 ms until the acquire's timeout (ShedLock itself tries once, and a job that
 * misses waits for its next turn), then {@code unlock()}. The job cannot ask whether it still holds the lock, so the
 * client never stops a hold by itself; the unlock returns nothing, so a release claims neither held nor gone.
 */
final class ShedLockClient implements LockClient {
    /** One attempt: the provider's {@code lock}, or empty where the provider certainly sent nothing. */
    interface Attempt {
        Optional<SimpleLock> lock(LockConfiguration configuration) throws Exception;
    }

    private static final long RETRY_MILLIS = 50;
    private final Attempt attempt;
    private final String name;
    private final Duration atMost;
    private final Duration atLeast;
    private final Runnable onClose;
    private SimpleLock lock;

    ShedLockClient(Attempt attempt, String name, Duration atMost, Duration atLeast, Runnable onClose) {
        this.attempt = attempt;
        this.name = name;
        this.atMost = atMost;
        this.atLeast = atLeast;
        this.onClose = onClose;
    }

    @Override
    public Grant acquire(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Instant now = ClockProvider.now();
            Optional<SimpleLock> got = attempt.lock(new LockConfiguration(now, name, atMost, atLeast));
            if (got.isPresent()) {
                lock = got.get();
                Map<String, Object> facts = new LinkedHashMap<>();
                facts.put("lock_at_most_for_ms", atMost.toMillis());
                facts.put("lock_until_client", now.plus(atMost).toString());
                return Grant.leased(name, 0, facts); // no session: the row or node outlives its connection
            }
            if (System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(RETRY_MILLIS);
        }
    }

    @Override
    public Release releaseOutcome(DangerPoint danger) throws Exception {
        danger.reach();
        SimpleLock l = lock;
        lock = null;
        l.unlock();
        return Release.UNKNOWN;
    }

    @Override
    public boolean release() {
        throw new UnsupportedOperationException("ShedLock's unlock says nothing: see releaseOutcome");
    }

    @Override
    public void close() {
        onClose.run();
    }

    /** The setting {@code lock_at_least_for_ms}, 0 by default. */
    static Duration atLeast(LockContext ctx) {
        String v = ctx.settings().getOrDefault("lock_at_least_for_ms", "0");
        try {
            long ms = Long.parseLong(v);
            if (ms >= 0) {
                return Duration.ofMillis(ms);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("lock_settings: lock_at_least_for_ms: expected milliseconds, 0 or more,"
                + " got '" + v + "'");
    }
}
