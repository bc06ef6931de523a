package io.lockchaos.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A test, as data. Every field has a default ({@link #DEFAULTS}); workload files and command-line options override
 * them through {@link TestSpecs}.
 *
 * @param name the test's name (its folder under histories/)
 * @param recipe the lock under test: mutex, reentrant-mutex, semaphore:N, rw, multi, naive-exclusive or naive-rw
 * @param nodes ZooKeeper servers: 1, 3 or 5
 * @param clients concurrent processes, each with its own session
 * @param keys lock keys
 * @param timeSeconds how long the workers run
 * @param holdMillis how long a holder holds
 * @param acquireTimeoutMillis how long an acquire waits
 * @param sessionTimeoutMillis the clients' session timeout
 * @param tickMillis the servers' tickTime
 * @param seed the run's seed (printed at start)
 * @param clientMode how holders react to connection states: ignore, stop-on-suspended or stop-on-lost
 * @param reentryDepth how many times a holder acquires per hold (more than 1 re-enters)
 * @param warmupSeconds a warm-up phase before the main one: the same workload, no faults
 * @param holdMaxMillis holds are drawn uniformly from [holdMillis, holdMaxMillis]; 0 means exactly holdMillis
 * @param tryAcquirePct the percentage of acquires that are single tries (timeout 0)
 * @param readPct for read/write locks, the percentage of workers that read
 * @param rate cycles per second per worker (a random stagger with that mean); 0 for as fast as possible
 * @param nemesis the fault schedule as text (see {@link io.lockchaos.nemesis.Schedule}); empty for none
 * @param quiesceMillis how long the system settles after the final heal; -1 for the session timeout plus 1 s when
 *     the run has faults, else 0
 * @param proxy the Toxiproxy backend for network faults: {@code embedded} or the URL of a running toxiproxy-server
 * @param expect the verdict a scenario is expected to reach (valid, invalid, unknown), or empty
 * @param cluster where the servers run: {@code local} (child JVMs) or {@code container} (Docker, with a Toxiproxy
 *     container for network faults)
 */
public record TestSpec(String name, String recipe, int nodes, int clients, int keys, long timeSeconds, long holdMillis,
                       long acquireTimeoutMillis, long sessionTimeoutMillis, int tickMillis, long seed,
                       String clientMode, int reentryDepth, long warmupSeconds, long holdMaxMillis,
                       int tryAcquirePct, int readPct, int rate, String nemesis, long quiesceMillis,
                       String proxy, String expect, String cluster) {
    public static final TestSpec DEFAULTS = new TestSpec("default", "reentrant-mutex", 3, 10, 1, 10, 10, 1000, 4000,
            200, 0, "ignore", 1, 0, 0, 0, 50, 0, "", -1, "embedded", "", "local");

    /** Whether the recipe is one of the seed's hand-written locks (raw ZooKeeper, persistent lock parents). */
    public boolean naive() {
        return recipe.startsWith("naive-");
    }

    /** The fault schedule, with random mixes expanded from the seed. */
    public io.lockchaos.nemesis.Schedule schedule() {
        return io.lockchaos.nemesis.Schedule.parse(nemesis, seed, timeSeconds * 1000);
    }

    /** How long the final quiesce lasts. */
    public long quiesce() {
        return quiesceMillis >= 0 ? quiesceMillis : nemesis.isBlank() ? 0 : sessionTimeoutMillis + 1000;
    }

    /** The spec as the key/value map a workload file holds. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("recipe", recipe);
        m.put("nodes", nodes);
        m.put("clients", clients);
        m.put("keys", keys);
        m.put("time_s", timeSeconds);
        m.put("hold_ms", holdMillis);
        m.put("acquire_timeout_ms", acquireTimeoutMillis);
        m.put("session_timeout_ms", sessionTimeoutMillis);
        m.put("tick_ms", tickMillis);
        m.put("seed", seed);
        m.put("client_mode", clientMode);
        m.put("reentry_depth", reentryDepth);
        m.put("warmup_s", warmupSeconds);
        m.put("hold_max_ms", holdMaxMillis);
        m.put("try_acquire_pct", tryAcquirePct);
        m.put("read_pct", readPct);
        m.put("rate", rate);
        m.put("nemesis", nemesis);
        m.put("quiesce_ms", quiesceMillis);
        m.put("proxy", proxy);
        m.put("expect", expect);
        m.put("cluster", cluster);
        return m;
    }
}
