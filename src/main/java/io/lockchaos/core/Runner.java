package io.lockchaos.core;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.client.CuratorLocks;
import io.lockchaos.client.CuratorMutexClient;
import io.lockchaos.client.Grant;
import io.lockchaos.client.LockClient;
import io.lockchaos.client.LockWorker;
import io.lockchaos.client.NaiveExclusiveLock;
import io.lockchaos.client.NaiveReadWriteLock;
import io.lockchaos.client.Recorder;
import io.lockchaos.client.Resources;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.ExternalEnsemble;
import io.lockchaos.cluster.LocalEnsemble;
import io.lockchaos.cluster.ZooKeepers;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.report.Throughput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Runs a test: store folder, ensemble, one session per process, workers until the time is up, then the final phase
 * (a heal marker, one probe acquire per key by a fresh client, and an inspection of the lock nodes left and the
 * sessions still open, all while the workers' sessions are still open), then closes everything and checks.
 */
public final class Runner {
    /**
     * What a run produced.
     *
     * @param dir the run's store folder
     * @param result the checkers' result
     * @param ops how many ops the history has
     * @param throughput grants per second and acquire latency, see {@link Throughput}
     */
    public record Outcome(Path dir, CheckResult result, long ops, Map<String, Object> throughput) {
    }

    private final TestSpec spec;
    private final Path runDir;
    private final String external;
    private final List<AutoCloseable> sessions = new ArrayList<>();
    /** Each open session's current id: Curator may move a client to a new session after an expiry. */
    private final List<java.util.function.LongSupplier> sessionIds = new ArrayList<>();
    private final Map<String, Resources> resources = new LinkedHashMap<>();

    /** A runner that starts a local ensemble of {@code spec.nodes()} servers in the run's folder. */
    public Runner(TestSpec spec, Path runDir) {
        this(spec, runDir, null);
    }

    /**
     * A runner against the user's ensemble at {@code connectString} (nothing is started or stopped there), or a
     * local one when it is null.
     */
    public Runner(TestSpec spec, Path runDir, String connectString) {
        this.spec = spec;
        this.runDir = runDir;
        this.external = connectString;
    }

    private Cluster cluster(String folder) throws java.io.IOException {
        if (external != null) {
            return ExternalEnsemble.of(external);
        }
        return LocalEnsemble.builder(runDir.resolve(folder)).size(spec.nodes()).tickTime(spec.tickMillis()).build();
    }

    /** The checker recipe for a run recipe. */
    static Recipe checkerRecipe(String recipe) {
        switch (recipe) {
            case "naive-exclusive": return new Recipe("naive-exclusive", 1, false, true, true, false);
            case "naive-herd": return new Recipe("naive-herd", 1, false, true, true, false);
            case "naive-queue": return new Recipe("naive-queue", 1, false, true, true, false);
            case "naive-rw": return new Recipe("naive-rw", 1, false, true, true, true);
            default: return Recipe.parse(recipe);
        }
    }

    /**
     * Whether holders run the critical section on the protected resources: for locks that promise one holder at a
     * time (writers only, for read/write locks). Semaphores admit several holders, so they would race by design.
     */
    private boolean protectsResources() {
        return !spec.recipe().startsWith("semaphore:");
    }

    private boolean naive() {
        return spec.recipe().startsWith("naive-");
    }

    private String key(int i) {
        return "/lockchaos/lock-" + i;
    }

    private List<String> allKeys() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < spec.keys(); i++) {
            keys.add(key(i));
        }
        return keys;
    }

    /**
     * Runs only the workers' phase, recording through {@code discarding} or to a history file, and returns granted
     * acquires per second: the two sides of the recorder overhead measurement. Nothing is checked.
     */
    public double grantsPerSecond(boolean record) throws Exception {
        Path historyFile = runDir.resolve(record ? "overhead-recorded.jsonl" : "overhead-discarded.jsonl");
        try (Cluster zk = cluster(record ? "servers-recorded" : "servers-discarded");
             HistoryWriter w = record ? HistoryWriter.create(historyFile) : null) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            Recorder rec = record ? new Recorder(w) : Recorder.discarding();
            try {
                prepare(zk.connectString());
                long t0 = System.nanoTime();
                runWorkers(zk.connectString(), rec);
                return rec.grants() / ((System.nanoTime() - t0) / 1e9);
            } finally {
                closeSessions();
                sessions.clear();
                sessionIds.clear();
                resources.clear();
            }
        }
    }

    public Outcome run() throws Exception {
        Path historyFile = runDir.resolve("history.jsonl");
        try (Cluster zk = cluster("servers");
             HistoryWriter w = HistoryWriter.create(historyFile)) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            Recorder rec = new Recorder(w);
            try {
                prepare(zk.connectString());
                runWorkers(zk.connectString(), rec);
                finalPhase(zk.connectString(), rec);
            } finally {
                closeSessions();
            }
        }
        History h = JsonlHistoryReader.read(historyFile);
        CheckResult result = Checkers.forRecipe(checkerRecipe(spec.recipe())).check(h);
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("test", spec.name());
        about.put("recipe", spec.recipe());
        about.put("ops", h.size());
        Map<String, Object> throughput = Throughput.of(h);
        about.put("throughput", throughput);
        ResultsJson.write(runDir.resolve("results.json"), result, about);
        return new Outcome(runDir, result, h.size(), throughput);
    }

    /** Persistent parents for the naive locks (Curator creates its own containers). */
    private void prepare(String connect) throws Exception {
        if (!naive()) {
            return;
        }
        ZooKeeper admin = zookeeper(connect, false);
        try {
            create(admin, "/lockchaos");
            for (String k : allKeys()) {
                create(admin, k);
            }
        } finally {
            admin.close();
        }
    }

    private static void create(ZooKeeper zk, String path) throws Exception {
        try {
            zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException e) {
            // already there
        }
    }

    private void runWorkers(String connect, Recorder rec) throws InterruptedException {
        SpecWorkload plan = new SpecWorkload(spec);
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        Thread phases = new Thread(() -> markPhases(rec, plan), "lockchaos-phases");
        phases.setDaemon(true);
        phases.start();
        for (int i = 0; i < spec.clients(); i++) {
            int worker = i;
            boolean read = spec.recipe().endsWith("rw") && plan.reads(worker);
            String key = spec.recipe().equals("multi") ? "multi" : key(plan.keyIndex(worker));
            LockWorker[] self = new LockWorker[1];
            LockWorker lw = new LockWorker(rec, key, worker, spec.clients(),
                    // a retired process's old session keeps its own process number and no longer steers the worker
                    p -> client(connect, key, read, rec, () -> p, st -> {
                        if (self[0].process() == p) {
                            self[0].onState(st);
                        }
                    }),
                    plan.generator(worker), start);
            self[0] = lw;
            lw.clientMode(io.lockchaos.client.ClientMode.parse(spec.clientMode())).reentryDepth(spec.reentryDepth());
            if (spec.recipe().endsWith("rw")) {
                lw.mode(read ? "read" : "write");
            }
            if (spec.recipe().equals("multi")) {
                lw.keys(allKeys());
            }
            if (protectsResources() && !read) {
                lw.resources(resources.computeIfAbsent(key, Resources::new));
            }
            Thread t = new Thread(lw, "lockchaos-worker-" + worker);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        // nemesis ops must not interleave: the heal marker comes after this thread's last op
        phases.interrupt();
        phases.join();
    }

    /** Records where the warm-up and the main phase begin. */
    private static void markPhases(Recorder rec, SpecWorkload plan) {
        try {
            if (plan.warmupMillis() > 0) {
                phase(rec, "warmup");
                Thread.sleep(plan.warmupMillis());
            }
            phase(rec, "main");
        } catch (InterruptedException e) {
            // the workers finished first
        }
    }

    private static void phase(Recorder rec, String name) {
        Op p = rec.invoke(Op.NEMESIS, Fn.PHASE, null, Map.of("phase", name));
        rec.complete(p, OpType.OK, Map.of("phase", name), null);
    }

    /** A client on a new session; for Curator recipes connection states are recorded for the worker's process. */
    private LockClient client(String connect, String key, boolean read, Recorder rec,
                              java.util.function.IntSupplier process, java.util.function.Consumer<String> onState) {
        try {
            if (naive()) {
                ZooKeeper zk = zookeeper(connect, true);
                switch (spec.recipe()) {
                    case "naive-rw": return new NaiveReadWriteLock(zk, key, "res", read);
                    case "naive-herd": return new io.lockchaos.client.NaiveHerdLock(zk, key, "res", false);
                    case "naive-queue": return new io.lockchaos.client.NaiveHerdLock(zk, key, "res", true);
                    default: return new NaiveExclusiveLock(zk, key, "res");
                }
            }
            CuratorFramework c = CuratorFrameworkFactory.newClient(connect, (int) spec.sessionTimeoutMillis(),
                    (int) Math.max(1000, spec.sessionTimeoutMillis() / 2), new RetryNTimes(3, 100));
            c.getConnectionStateListenable().addListener((cf, state) -> {
                long session = 0;
                try {
                    session = cf.getZookeeperClient().getZooKeeper().getSessionId();
                } catch (Exception e) {
                    // no session to name
                }
                rec.state(process.getAsInt(), state.name(), session);
                onState.accept(state.name());
            });
            c.start();
            if (!c.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + connect);
            }
            register(c, () -> {
                try {
                    return c.getZookeeperClient().getZooKeeper().getSessionId();
                } catch (Exception e) {
                    return 0; // no session right now
                }
            });
            String r = spec.recipe();
            if (r.equals("mutex")) {
                return CuratorLocks.semaphoreMutex(c, key);
            } else if (r.equals("reentrant-mutex")) {
                return new CuratorMutexClient(c, key);
            } else if (r.startsWith("semaphore:")) {
                return CuratorLocks.semaphore(c, key, Integer.parseInt(r.substring("semaphore:".length())));
            } else if (r.equals("rw")) {
                return CuratorLocks.readWrite(c, key, read);
            } else {
                return CuratorLocks.multi(c, allKeys());
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private ZooKeeper zookeeper(String connect, boolean keep) throws Exception {
        ZooKeeper zk = ZooKeepers.connect(connect, (int) spec.sessionTimeoutMillis(), Duration.ofSeconds(30));
        if (keep) {
            register(zk::close, zk::getSessionId);
        }
        return zk;
    }

    private synchronized void register(AutoCloseable session, java.util.function.LongSupplier id) {
        sessions.add(session);
        sessionIds.add(id);
    }

    /** Heal marker, a probe acquire and release per key by a fresh client, then the inspection. */
    private void finalPhase(String connect, Recorder rec) throws Exception {
        Op heal = rec.invoke(Op.NEMESIS, Fn.HEAL, null, null);
        rec.complete(heal, OpType.OK, null, null);
        int process = 1_000_000;
        List<String> probeKeys = spec.recipe().equals("multi") ? List.of("multi") : allKeys();
        for (String key : probeKeys) {
            int p = process++;
            LockClient probe = client(connect, key, false, rec, () -> p, st -> { });
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("timeout_ms", spec.acquireTimeoutMillis());
            if (spec.recipe().endsWith("rw")) {
                params.put("mode", "write");
            }
            if (spec.recipe().equals("multi")) {
                params.put("keys", allKeys());
            }
            Op acq = rec.invoke(p, Fn.ACQUIRE, key, params);
            Grant g;
            try {
                g = probe.acquire(Duration.ofMillis(spec.acquireTimeoutMillis()));
            } catch (Exception e) {
                rec.complete(acq, OpType.INFO, null, String.valueOf(e));
                continue;
            }
            rec.complete(acq, g == null ? OpType.FAIL : OpType.OK, g == null ? null : g.toValue(),
                    g == null ? "timeout" : null);
            if (g != null) {
                Op rel = rec.invoke(p, Fn.RELEASE, key, params.containsKey("mode") ? Map.of("mode", "write") : null);
                boolean held = probe.release();
                rec.complete(rel, held ? OpType.OK : OpType.FAIL, null, held ? null : "not-held");
            }
        }
        int reader = process++;
        for (Resources r : resources.values()) {
            r.finalRead(rec, reader);
        }
        inspect(connect, rec);
    }

    private void inspect(String connect, Recorder rec) throws Exception {
        Op inv = rec.invoke(Op.NEMESIS, Fn.INSPECT, null, null);
        List<Map<String, Object>> nodes = new ArrayList<>();
        ZooKeeper admin = zookeeper(connect, false);
        try {
            for (String key : allKeys()) {
                for (String dir : List.of(key, key + "/leases", key + "/locks")) {
                    List<String> children;
                    try {
                        children = admin.getChildren(dir, false);
                    } catch (KeeperException.NoNodeException e) {
                        continue;
                    }
                    for (String c : children) {
                        Stat s = admin.exists(dir + "/" + c, false);
                        if (s != null && s.getEphemeralOwner() != 0) {
                            Map<String, Object> n = new LinkedHashMap<>();
                            n.put("key", key);
                            n.put("node", dir + "/" + c);
                            n.put("owner", s.getEphemeralOwner());
                            nodes.add(n);
                        }
                    }
                }
            }
        } finally {
            admin.close();
        }
        List<Long> open = new ArrayList<>();
        synchronized (this) {
            for (java.util.function.LongSupplier id : sessionIds) {
                open.add(id.getAsLong());
            }
        }
        rec.complete(inv, OpType.OK, Map.of("nodes", nodes, "sessions", open), null);
    }

    /** Closes every session, many at a time: each close waits for the server, and runs may have a thousand. */
    private void closeSessions() {
        List<AutoCloseable> all;
        synchronized (this) {
            all = List.copyOf(sessions);
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, Math.min(64, all.size())));
        for (AutoCloseable s : all) {
            pool.execute(() -> {
                try {
                    s.close();
                } catch (Exception e) {
                    // closing is best effort: the servers go next anyway
                }
            });
        }
        pool.shutdown();
        try {
            pool.awaitTermination(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes test.json: the spec, the seed and the versions. */
    public static void writeTestJson(Path runDir, TestSpec spec) throws java.io.IOException {
        Map<String, Object> t = new LinkedHashMap<>(spec.toMap());
        t.put("versions", Map.of("lockchaos", "0.1.0", "zookeeper", "3.9.5", "curator", "5.9.0",
                "java", System.getProperty("java.version")));
        ResultsJson.writeMap(runDir.resolve("test.json"), t);
        Files.createDirectories(runDir.resolve("servers"));
    }
}
