package io.lockchaos.core;

import io.lockchaos.agent.AgentLauncher;
import io.lockchaos.agent.ClientAgents;
import io.lockchaos.agent.VersionResolver;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.client.ClientHandle;
import io.lockchaos.client.ClientRegistry;
import io.lockchaos.client.DataConnection;
import io.lockchaos.client.Library;
import io.lockchaos.client.LiveMonitor;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.client.LockWorker;
import io.lockchaos.client.Recorder;
import io.lockchaos.client.Resources;
import io.lockchaos.client.ServerPlan;
import io.lockchaos.client.UserLock;
import io.lockchaos.cluster.ClockShiftLibrary;
import io.lockchaos.cluster.Cluster;
import io.lockchaos.cluster.Docker;
import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.PeerRouting;
import io.lockchaos.cluster.ServerNamespaces;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.fault.Schedule;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.nemesis.IptablesPartitioner;
import io.lockchaos.nemesis.Nemeses;
import io.lockchaos.nemesis.NemesisContext;
import io.lockchaos.nemesis.NemesisDriver;
import io.lockchaos.nemesis.Partitioner;
import io.lockchaos.nemesis.ProxyNetwork;
import io.lockchaos.nemesis.ToxiproxyBackend;
import io.lockchaos.nemesis.ToxiproxyBackends;
import io.lockchaos.report.OverlapStory;
import io.lockchaos.report.Phases;
import io.lockchaos.report.ProgressLine;
import io.lockchaos.report.Reports;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.report.RunnerStalls;
import io.lockchaos.report.Throughput;
import io.lockchaos.ssh.SshAgents;
import io.lockchaos.ssh.SshOptions;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.zookeeper.ZooKeeper;

/**
 * Runs a test as a short chain of phases: proxies (when the schedule has network faults), ensemble, one session per
 * process, workers and the nemesis until the workload is done, the final heal and quiesce, then one probe acquire per
 * key by a fresh client and an inspection of the lock nodes left and the sessions still open (while the workers'
 * sessions are still open), then it closes everything and checks.
 */
public final class Runner {
    /**
     * What a run produced.
     *
     * @param dir the run's store folder
     * @param result the checkers' result
     * @param ops how many ops the history has
     * @param throughput grants per second and acquire latency, see {@link Throughput}
     * @param faultsStarted faults the nemesis applied
     * @param faultsFailed faults it could not apply (recorded as info)
     * @param stories how each double holder happened
     * @param detectedAfterSeconds seconds from the start of {@link #run} to the live sight of the first double holder,
     *     or -1 when none was seen while running
     * @param stalls when the runner itself was frozen, from its history's {@code stall} ops
     */
    public record Outcome(Path dir, CheckResult result, long ops, Map<String, Object> throughput, int faultsStarted,
                          int faultsFailed, List<OverlapStory> stories, double detectedAfterSeconds,
                          List<RunnerStalls.Stall> stalls) {
    }

    private final TestSpec spec;
    private final Path runDir;
    private ClientAgents agents;
    /** The Curator version the agents reported from their jars, when the clients ran in agents. */
    private String agentCurator;
    private long agentStartMillis = -1;
    private final String external;
    private final Map<String, Resources> resources = new LinkedHashMap<>();
    /**
     * The servers of the protected data ({@code protected_data}) in this run, or null when it is in memory; and the
     * workers' connections to it, closed when the workers are done.
     */
    private Cluster dataServers;
    private final List<DataConnection> dataConnections = new ArrayList<>();
    private Sessions sessions;
    private java.io.PrintStream console;
    private int overheadRounds;
    private org.testcontainers.containers.Network network;

    /** A runner that starts a local ensemble of {@code spec.cluster().nodes()} servers in the run's folder. */
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

    /** Shows progress and live detections on {@code out} while running (default: silent). */
    public Runner console(java.io.PrintStream out) {
        this.console = out;
        return this;
    }

    private Cluster cluster(String folder, PeerRouting routing) throws IOException {
        boolean clock = spec.schedule().events().stream().anyMatch(e -> e.fault().movesServerClocks());
        Preflight.serversWithoutConnect(spec, external);
        boolean reconfigurable = spec.schedule().events().stream()
                .anyMatch(e -> e.fault().kind().changesMembership());
        return LockServices.of(spec.recipe()).start(new ServerPlan(runDir.resolve(folder), spec.cluster().nodes(),
                spec.recipe(), spec.cluster().kind(), external, clock,
                new ServerPlan.Membership(reconfigurable, spec.schedule().newServers()), routing, this::network,
                this::setting));
    }

    /** A workload key's value as the spec holds it, for a lock service that reads its own keys. */
    private Object setting(String key) {
        return Keys.value(spec, key);
    }

    /** How a run logs in to its hosts ({@code cluster ssh}). */
    static SshOptions sshOptions(TestSpec spec) {
        return SshOptions.of(key -> Keys.value(spec, key));
    }

    /** What cuts servers apart: iptables in their namespaces, else the proxies (or nothing). */
    private Partitioner partitioner(Cluster zk, ProxyNetwork net) {
        if (zk.netns() != null) {
            return new IptablesPartitioner(zk.netns());
        }
        // containers are cut by the Toxiproxy container unless the workload asks for iptables in their namespaces
        ServerNamespaces elsewhere = zk.namespaces();
        if (elsewhere != null && (!containers() || spec.cutsWithIptables())) {
            return new IptablesPartitioner(elsewhere);
        }
        return net;
    }

    private boolean containers() {
        return external == null && spec.cluster().containers();
    }

    /** The Docker network of a container run: the servers and the Toxiproxy container share it. */
    private org.testcontainers.containers.Network network() {
        if (network == null) {
            if (!Docker.available()) {
                throw new IllegalArgumentException(Preflight.NO_DOCKER);
            }
            network = Docker.network();
        }
        return network;
    }

    private String key(int i) {
        return "/lockchaos/lock-" + i;
    }

    private List<String> allKeys() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < spec.workload().keys(); i++) {
            keys.add(key(i));
        }
        return keys;
    }

    private ToxiproxyBackend backend(Schedule schedule) throws IOException {
        boolean peers = schedule.needsPeerProxies() && !spec.cutsWithIptables();
        if (!schedule.needsClientProxies() && !peers && spec.dataService() == null) {
            return null;
        }
        if (schedule.needsPeerProxies() && external != null) {
            throw new IllegalArgumentException("nemesis: server partitions need the local ensemble, not --connect");
        }
        if (containers()) {
            int proxies = spec.clients().count() * spec.cluster().nodes();
            ToxiproxyBackend b = ToxiproxyBackends.container(network(), proxies,
                    LockServices.of(spec.recipe()).containerAddresses());
            if (schedule.needsClientProxies() && proxies > b.clientProxyCapacity()) {
                b.close();
                throw new IllegalArgumentException("cluster: container: " + spec.clients().count() + " clients x "
                        + spec.cluster().nodes() + " servers need more client proxies than the Toxiproxy container"
                        + " publishes (" + b.clientProxyCapacity() + ")");
            }
            return b;
        }
        return spec.faults().proxy().embedded() ? ToxiproxyBackends.embedded()
                : ToxiproxyBackends.external(spec.faults().proxy().url());
    }

    /**
     * Runs only the workers' phase, without faults, recording through {@code discarding} or to a history file, and
     * returns granted acquires per second: the two sides of the recorder overhead measurement. Nothing is checked.
     */
    public double grantsPerSecond(boolean record) throws Exception {
        // every round on an ensemble of its own, from empty data: a reused data folder would bring back the last
        // round's sessions and their lock nodes until they expire, and slow this round down
        int round = ++overheadRounds;
        Path historyFile = runDir.resolve(record ? "overhead-recorded.jsonl" : "overhead-discarded.jsonl");
        try (Cluster zk = cluster((record ? "servers-recorded-" : "servers-discarded-") + round, PeerRouting.DIRECT);
             HistoryWriter w = record ? HistoryWriter.create(historyFile) : null) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            Recorder rec = record ? new Recorder(w) : Recorder.discarding();
            agents = startAgents(null);
            sessions = new Sessions(spec, rec, agents);
            sessions.servers(zk.connectString());
            try {
                prepare(zk.connectString());
                long t0 = System.nanoTime();
                NemesisContext ctx = new NemesisContext(zk, new ClientRegistry(spec.clients().count()), null,
                        spec.clients().sessionTimeoutMillis(), new SplittableRandom(spec.seed()));
                runWorkers(zk, rec, ctx, new NemesisDriver(Schedule.NONE, Nemeses.noop(), ctx, rec, 0), false);
                return rec.grants() / ((System.nanoTime() - t0) / 1e9);
            } finally {
                sessions.closeAll();
                closeAgents();
                resources.clear();
            }
        }
    }

    public Outcome run() throws Exception {
        Phases phases = new Phases(console);
        RunDir.of(runDir).reserveSpace(); // room for crashed.json, should the store fill up
        try {
            return run(phases);
        } catch (Exception | Error e) {
            // the stored run says why it has no results, and where it stopped
            EnvironmentProblem env = EnvironmentProblem.in(e);
            HistoryWriter.WriteFailed full = writeFailure(e);
            if (full != null) {
                env = new EnvironmentProblem(full.getMessage()
                        + "; the run stopped there (crashed.json beside it says in which phase)");
            }
            RunDir.of(runDir).recordCrash(phases.current() != null ? phases.current()
                    : "setting up", env != null ? env.getMessage() : String.valueOf(e));
            if (full != null) {
                throw env;
            }
            throw e;
        } finally {
            RunDir.of(runDir).releaseSpace();
        }
    }

    /** The failed write of the history somewhere in {@code t}'s causes, or null. */
    private static HistoryWriter.WriteFailed writeFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof HistoryWriter.WriteFailed f) {
                return f;
            }
        }
        return null;
    }

    private Outcome run(Phases phases) throws Exception {
        long started = System.nanoTime();
        Path historyFile = RunDir.of(runDir).history();
        double[] detectedAfter = {-1}; // set by the live monitor, seconds after the start
        NemesisDriver driver = execute(phases, historyFile, started, detectedAfter);
        return judge(phases, historyFile, driver, detectedAfter[0]);
    }

    /**
     * Starts the servers, the proxies and the clients, runs the workers under the schedule, heals, and runs the final
     * phase, recording everything into {@code historyFile}; everything started is stopped again, whatever happens.
     */
    private NemesisDriver execute(Phases phases, Path historyFile, long started, double[] detectedAfter)
            throws Exception {
        Schedule schedule = spec.schedule();
        NemesisDriver driver;
        try (ToxiproxyBackend proxies = backend(schedule)) {
            ProxyNetwork net = proxies == null ? null : new ProxyNetwork(proxies.client(), proxies.placement());
            try (Cluster zk = cluster("servers", schedule.needsPeerProxies() && !spec.cutsWithIptables() ? net
                    : PeerRouting.DIRECT);
                 Cluster data = dataServers(net);
                 HistoryWriter w = HistoryWriter.create(historyFile)) {
                try (Phases.Step s = phases.start(external != null ? "connecting to the ensemble"
                        : "starting " + spec.cluster().nodes() + " " + spec.cluster().kind().wireName()
                        + " " + spec.recipe().servers())) {
                    zk.start();
                    zk.awaitHealthy(Duration.ofSeconds(60));
                }
                if (data != null) {
                    String what = "starting the protected data's " + spec.dataService().servers();
                    try (Phases.Step s = phases.start(what)) {
                        data.start();
                        data.awaitHealthy(Duration.ofSeconds(60));
                    }
                }
                dataServers = data;
                Recorder rec = new Recorder(w);
                agents = startAgents(phases);
                sessions = new Sessions(spec, rec, agents);
                sessions.servers(zk.connectString());
                NemesisContext ctx = new NemesisContext(zk, new ClientRegistry(spec.clients().count()), net,
                        partitioner(zk, net), spec.clients().sessionTimeoutMillis(),
                        new SplittableRandom(spec.seed())).withData(data);
                driver = new NemesisDriver(schedule, Nemeses.standard(ctx), ctx, rec,
                        spec.workload().warmupSeconds() * 1000);
                NemesisDriver d = driver;
                ProgressLine progress = console == null ? null : new ProgressLine(console,
                        spec.workload().warmupSeconds() + spec.workload().timeSeconds(), rec::ops, d::activeFaults);
                rec.observe(new LiveMonitor(spec.recipe().promises(), found -> {
                    detectedAfter[0] = (System.nanoTime() - started) / 1e9;
                    if (progress != null) {
                        progress.announce(String.format(java.util.Locale.ROOT, "  ! live: %d holders of %s at %.3f s"
                                + " (process %d granted while another held it), %.1f s after the run began",
                                found.holders(), found.key(), found.timeNs() / 1e9, found.newcomer(),
                                detectedAfter[0]));
                    }
                }));
                StallDetector heartbeat = StallDetector.start(rec::now, spec.number("stall_ms"), stall -> {
                    try {
                        rec.stall(stall.startNs(), stall.endNs());
                    } catch (java.io.UncheckedIOException e) {
                        // a store that cannot be written is said by the workers' own writes; not a second time here
                    }
                });
                try {
                    phases.mark("running the workers and faults");
                    prepare(zk.connectString());
                    try (ResourceSampler sampler = ResourceSampler.start(RunDir.of(runDir).resources(), rec::ops,
                            historyFile, spec.checking().memoryGrowthMb() >= 0)) {
                        runWorkers(zk, rec, ctx, driver, schedule.needsClientProxies());
                    }
                    if (progress != null) {
                        progress.close();
                    }
                    try (Phases.Step s = phases.start(String.format(java.util.Locale.ROOT, "final heal%s",
                            spec.quiesce() > 0 ? ", quiesce " + spec.quiesce() / 1000.0 + " s" : ""))) {
                        driver.healAndQuiesce(spec.quiesce());
                    }
                    try (Phases.Step s = phases.start("final probes, reads and inspection")) {
                        new FinalPhase(spec, sessions, allKeys()).run(zk.connectString(), rec, resources.values(),
                                data == null ? null : data.connectString());
                    }
                } finally {
                    heartbeat.close();
                    sessions.closeAll();
                    closeAgents();
                }
            }
        } finally {
            closeAgents(); // also when the run failed before its workers started
            if (network != null) {
                network.close();
            }
        }
        return driver;
    }

    /** Checks the recorded history, tells its overlap stories, and writes results.json and the reports. */
    private Outcome judge(Phases phases, Path historyFile, NemesisDriver driver, double detectedAfter)
            throws Exception {
        History h;
        CheckResult result;
        try (Phases.Step s = phases.start("checking the history")) {
            h = JsonlHistoryReader.read(historyFile);
            result = Checkers.safe(Checkers.forRun(spec.recipe().promises(),
                    spec.checking().acquireSlackMillis())).check(h);
        }
        Map<String, Object> about = new LinkedHashMap<>();
        about.put("test", spec.name());
        about.put("recipe", spec.recipe().wireName());
        about.put("curator", agentCurator != null ? agentCurator : spec.clients().curatorVersion());
        if (agentStartMillis >= 0) {
            about.put("agents", Map.of("count", spec.clients().agentCount(pausesClients()), "start_ms",
                    agentStartMillis));
        }
        about.put("ops", h.size());
        about.put("faults", Map.of("started", driver.started(), "failed", driver.failed()));
        Map<String, Object> throughput = Throughput.of(h);
        about.put("throughput", throughput);
        List<OverlapStory> stories;
        try {
            stories = OverlapStory.forRun(runDir, h, result);
        } catch (IOException | RuntimeException e) {
            stories = List.of(); // the stories only explain; they must not cost the run its verdict
            System.err.println("lockchaos: warning: no overlap stories (" + e.getMessage() + ")");
        }
        about.put("stories", stories.stream().map(OverlapStory::toMap).toList());
        // always present in a run's results (the heartbeat ran), empty when it never stalled
        List<RunnerStalls.Stall> stalls = RunnerStalls.of(h);
        about.put("runner_stalls", RunnerStalls.toMaps(stalls));
        if (detectedAfter >= 0) {
            about.put("live_detection_after_s", detectedAfter);
        }
        try (Phases.Step s = phases.start("writing results and reports")) {
            RunDir.of(runDir).releaseSpace();
            ResultsJson.write(RunDir.of(runDir).results(), result, about);
            Reports.writeAll(runDir, h, result, about);
        }
        return new Outcome(runDir, result, h.size(), throughput, driver.started(), driver.failed(), stories,
                detectedAfter, stalls);
    }

    /**
     * How long a statement on the protected data may wait for its answer: a lost answer then ends as an unknown
     * outcome, and a holder is not kept past a few holds by a database that does not answer.
     */
    private static final Duration DATA_TIMEOUT = Duration.ofSeconds(5);

    /**
     * The protected data's servers, not started yet, or null when the data is in memory; a replica reaches its primary
     * through {@code net}'s proxy, which isolating either cuts.
     */
    private Cluster dataServers(ProxyNetwork net) throws IOException {
        LockService service = spec.dataService();
        if (service == null) {
            return null;
        }
        return service.dataServers(runDir.resolve("data"), spec.dataReplication(),
                net == null ? PeerRouting.DIRECT : net.dataReplication());
    }

    /** Worker {@code worker}'s connection to the protected data, through its own proxy; null when it is in memory. */
    private DataConnection dataConnection(NemesisContext ctx, int worker) {
        if (dataServers == null) {
            return null;
        }
        DataConnection c = spec.dataService().openData(ctx.network().dataAddress(worker, dataServers.nodes()),
                DATA_TIMEOUT);
        dataConnections.add(c);
        return c;
    }

    /** Persistent parents for the naive locks (Curator creates its own containers). */
    private void prepare(String connect) throws Exception {
        LockServices.of(spec.recipe()).prepare(connect, spec.recipe(), allKeys(),
                (int) spec.clients().sessionTimeoutMillis());
        sessions.setUp(connect, allKeys());
    }

    /**
     * Runs the workers, each through its own proxies when {@code proxied}, and the nemesis driver beside them until
     * every worker's generator is exhausted.
     */
    private void runWorkers(Cluster zk, Recorder rec, NemesisContext ctx, NemesisDriver driver, boolean proxied)
            throws InterruptedException {
        try {
            runAndJoinWorkers(zk, rec, ctx, driver, proxied);
        } finally {
            dataConnections.forEach(DataConnection::close);
            dataConnections.clear();
        }
    }

    private void runAndJoinWorkers(Cluster zk, Recorder rec, NemesisContext ctx, NemesisDriver driver,
                                   boolean proxied) throws InterruptedException {
        SpecWorkload plan = new SpecWorkload(spec);
        // everything that can fail comes before the first thread starts: a thread waiting for the others to be
        // ready would otherwise wait for ever
        List<String> connects = new ArrayList<>();
        for (int i = 0; i < spec.clients().count(); i++) {
            connects.add(proxied ? ctx.network().clientConnectString(i, zk.nodes()) : zk.connectString());
        }
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(spec.clients().count());
        List<Thread> threads = new ArrayList<>();
        List<LockWorker> workers = new ArrayList<>();
        Thread nemesis = new Thread(() -> {
            try {
                ready.await(); // the schedule's clock starts with the workers'
            } catch (InterruptedException e) {
                return;
            }
            try {
                driver.run();
            } catch (Recorder.Stopped e) {
                // the history cannot be written: the runner stops the run and says why
            }
        }, "lockchaos-nemesis");
        nemesis.setDaemon(true);
        nemesis.start();
        for (int i = 0; i < spec.clients().count(); i++) {
            int worker = i;
            boolean read = spec.recipe().readWrite() && plan.reads(worker);
            String key = spec.recipe().spansKeys() ? "multi" : key(plan.keyIndex(worker));
            String connect = connects.get(worker);
            ClientHandle handle = ctx.clients().worker(worker);
            LockWorker[] self = new LockWorker[1];
            LockWorker lw = new LockWorker(rec, key, worker, spec.clients().count(),
                    // a retired process's old session keeps its own process number and no longer steers the worker,
                    // unless the worker kept that client (after_unknown keep-client): then it is the worker's
                    p -> sessions.client(connect, key, read, allKeys(), () -> self[0].processOfClient(p), st -> {
                        if (self[0].processOfClient(p) == self[0].process()) {
                            self[0].onState(st);
                        }
                    }, handle),
                    plan.generator(worker), 0);
            self[0] = lw;
            lw.startTogether(ready);
            lw.clientMode(spec.clients().mode()).reentryDepth(spec.clients().reentryDepth()).handle(handle)
                    .openTries((int) spec.number("open_tries"))
                    .keepClientAfterUnknown(spec.text("after_unknown").equals("keep-client"));
            if (spec.recipe().readWrite()) {
                lw.mode(read ? "read" : "write");
                if (!read && spec.workload().downgradePct() > 0) {
                    lw.downgrade(spec.workload().downgradePct(), spec.seed() * 31 + worker);
                }
            }
            if (spec.recipe().spansKeys()) {
                lw.keys(allKeys());
            }
            if (spec.recipe().protectsResources() && !read) {
                lw.resources(resources.computeIfAbsent(key, Resources::new)).data(dataConnection(ctx, worker),
                        spec.dataFencing(), spec.afterUnknownCommit());
            }
            Thread t = new Thread(() -> {
                try {
                    lw.run();
                } catch (Recorder.Stopped e) {
                    // the history cannot be written: the runner stops the run and says why
                }
            }, "lockchaos-worker-" + worker);
            threads.add(t);
            workers.add(lw);
            t.start();
        }
        ready.await();
        for (LockWorker w : workers) {
            if (w.openFailure() != null) {
                // a worker without its first client means the lock cannot be used at all (a bad address, a user's
                // lock whose open throws): stop, keeping what the others recorded
                threads.forEach(Thread::interrupt);
                nemesis.interrupt();
                for (Thread t : threads) {
                    t.join();
                }
                nemesis.join();
                throw new IllegalArgumentException("the run stopped: worker " + w.process() + " has "
                        + w.openFailure());
            }
        }
        for (Thread t : threads) {
            while (t.isAlive()) {
                t.join(200);
                if (rec.failure() != null) {
                    // nothing more can be recorded: every op from here on would be unjudgeable, so stop now
                    threads.forEach(Thread::interrupt);
                    nemesis.interrupt();
                }
            }
        }
        // nemesis ops must not interleave: the final heal comes after the driver's last op
        nemesis.interrupt();
        nemesis.join();
        if (rec.failure() != null) {
            throw new Recorder.Stopped(rec.failure());
        }
    }

    /**
     * Starts the run's client agents when its clients run another Curator (null otherwise): resolves the version's
     * jars (cached after the first time) and waits until every agent listens.
     */
    private ClientAgents startAgents(Phases phases) throws Exception {
        int n = spec.clients().agentCount(pausesClients());
        if (!spec.inAgents()) {
            return null;
        }
        UserLock user = LibraryLocks.agentsLock(spec);
        if (!spec.text("client_hosts").isBlank()) {
            List<String> hosts = SshOptions.hosts(spec.text("client_hosts"));
            SshAgents a;
            try (Phases.Step s = phases == null ? null : phases.start("starting " + hosts.size()
                    + " client agent(s) over SSH on " + String.join(",", hosts))) {
                a = SshAgents.start(hosts, sshOptions(spec), runDir.resolve("agents"));
            }
            if (console != null) {
                for (Map<String, Object> o : a.clockOffsets()) {
                    console.printf("  client host %s: clock %+d ms from this machine's (measured in a %d ms round"
                            + " trip)%n", o.get("host"), o.get("offset_ms"), o.get("round_trip_ms"));
                }
            }
            agentCurator = a.curatorVersion();
            agentStartMillis = a.startMillis();
            return a;
        }
        List<Path> jars;
        try {
            jars = spec.clients().agents() ? VersionResolver.defaults().classpath(
                    spec.clients().curator()) : List.of();
        } catch (VersionResolver.UnresolvableVersion e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        // agents whose clocks a fault moves run under the clock-shift library, each with an offset file of its own
        Path clockLibrary = spec.schedule().events().stream().anyMatch(e -> e.fault().movesClientClocks())
                ? ClockShiftLibrary.build(runDir.resolve("agents").toAbsolutePath()) : null;
        if (user != null) {
            AgentLauncher a;
            try (Phases.Step s = phases == null ? null : phases.start("starting " + n + " client agent(s) for "
                    + user.className() + (jars.isEmpty() ? "" : " on Curator " + spec.clients().curator()))) {
                a = AgentLauncher.start(user, jars, n, runDir.resolve("agents"), clockLibrary);
            }
            agentCurator = a.curatorVersion();
            agentStartMillis = a.startMillis();
            return a;
        }
        AgentLauncher a;
        boolean own = !spec.clients().agents(); // client_agents: the runner's own classpath
        try (Phases.Step s = phases == null ? null : phases.start("starting " + n + " client agent(s) "
                + (own ? "for " + spec.recipe().wireName() : "on Curator " + spec.clients().curator()))) {
            a = own ? AgentLauncher.startOwn(n, runDir.resolve("agents"), clockLibrary)
                    : AgentLauncher.start(jars, n, runDir.resolve("agents"), clockLibrary);
        }
        agentCurator = a.curatorVersion();
        agentStartMillis = a.startMillis();
        return a;
    }

    /** Whether a fault acts on one client's whole process: a client pause, or a jump of one client's clock. */
    private boolean pausesClients() {
        return spec.schedule().events().stream().anyMatch(e -> e.fault().kind()
                == FaultKind.PAUSE_CLIENT || e.fault().movesOneClientsClock())
                || spec.faults().nemesis().contains("pause-client"); // a mix names it without events
    }

    private void closeAgents() {
        if (agents != null) {
            agents.close();
            agents = null;
        }
    }

    /** Writes test.json: the spec, the expanded fault schedule, the seed and the versions. */
    public static void writeTestJson(Path runDir, TestSpec spec) throws IOException {
        Map<String, Object> t = new LinkedHashMap<>(spec.toMap());
        t.put("schedule", spec.schedule().timeline());
        Map<String, Object> versions = new LinkedHashMap<>();
        versions.put("lockchaos", "0.1.0");
        versions.put("zookeeper", spec.cluster().zooKeeperVersion());
        Library library = spec.recipe().kind().library();
        versions.put("curator", spec.recipe().fromJar() != null ? "lock_jar's" : library != null ? "none"
                : spec.clients().curatorVersion());
        if (library != null) {
            versions.put(library.name(), spec.text("library_version").isBlank() ? library.compiledVersion()
                    : spec.text("library_version"));
        }
        versions.put("clients", spec.inAgents() ? "client agents" : "in-process");
        versions.put("java", System.getProperty("java.version"));
        versions.putAll(LockServices.of(spec.recipe()).versions());
        t.put("versions", versions);
        ResultsJson.writeMap(RunDir.of(runDir).test(), t);
        Files.createDirectories(runDir.resolve("servers"));
    }
}
