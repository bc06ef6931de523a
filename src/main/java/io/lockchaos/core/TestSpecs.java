package io.lockchaos.core;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.agent.VersionResolver;
import io.lockchaos.checker.Verdict;
import io.lockchaos.client.AfterUnknownCommit;
import io.lockchaos.client.ClientMode;
import io.lockchaos.client.DataFencing;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.client.LockSettings;
import io.lockchaos.client.ServiceSpec;
import io.lockchaos.cluster.ClusterKind;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.fault.Schedule;
import io.lockchaos.ssh.SshOptions;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Loads and validates test specs: unknown keys and impossible values are rejected with one line naming the key. */
public final class TestSpecs {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.ALLOW_COMMENTS);

    private TestSpecs() {
    }

    /** Reads a workload file (a JSON object of keys from {@link TestSpec#toMap()}) over the defaults. */
    public static TestSpec load(Path file) throws SpecException {
        JsonNode root = readObject(file, "");
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            values.put(e.getKey(), e.getKey().equals("nemesis") && v.isArray() ? timeline(file, v)
                    : e.getKey().startsWith("expect_by_") && v.isObject() ? byVersion(file, e.getKey(), v)
                    : e.getKey().endsWith("_anomalies") && v.isArray() ? kindList(file, e.getKey(), v)
                    : v.isValueNode() ? v.asText() : v.toString());
        }
        return validate(file.toString(), with(file.toString(), TestSpec.DEFAULTS, values));
    }

    /** Reads a JSON object from {@code file}; {@code hint} ends the message for a missing file. */
    private static JsonNode readObject(Path file, String hint) throws SpecException {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new SpecException(file + ":" + line + ": malformed JSON (" + e.getOriginalMessage() + ")");
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new SpecException(file + ": no such file" + hint);
        } catch (IOException e) {
            throw new SpecException(file + ": cannot read (" + e.getMessage() + ")");
        }
        if (root == null || !root.isObject()) {
            throw new SpecException(file + ": expected a JSON object of workload keys");
        }
        return root;
    }

    /**
     * The spec of a stored run, from its test.json, with the fault schedule exactly as that run expanded it (a random
     * mix becomes its explicit events), so running it again replays the same faults and the same seed.
     */
    public static TestSpec fromStoredRun(Path runDir) throws SpecException {
        Path file = RunDir.of(runDir).test();
        JsonNode root = readObject(file, " (is " + runDir + " a stored run?)");
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("versions") || e.getKey().equals("schedule")) {
                continue;
            }
            values.put(e.getKey(), e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString());
        }
        if (root.has("schedule")) {
            values.put("nemesis", timeline(file, root.get("schedule")));
        }
        return validate(file.toString(), with(file.toString(), TestSpec.DEFAULTS, values));
    }

    /**
     * Expectations per Curator or ZooKeeper version ({@code key}) given as a JSON object ({@code {"<5.5.0":
     * "invalid"}}), as one text.
     */
    private static String byVersion(Path file, String key, JsonNode object) throws SpecException {
        StringBuilder s = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new SpecException(file + ": " + key + ": " + e.getKey() + ": expected a verdict as a"
                        + " string, got " + e.getValue());
            }
            s.append(s.length() == 0 ? "" : "; ").append(e.getKey()).append(' ').append(e.getValue().asText());
        }
        return s.toString();
    }

    /**
     * Reads {@code lock_settings}: a JSON object whose values are strings, numbers or booleans (kept as their text),
     * or empty for none.
     *
     * @throws IllegalArgumentException naming {@code lock_settings} and what is wrong
     */
    public static Map<String, String> lockSettings(String text) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("lock_settings: expected a JSON object of names and values, e.g."
                    + " {\"using_db_time\": true}, got '" + text + "'");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("lock_settings: expected a JSON object of names and values, got '"
                    + text + "'");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new IllegalArgumentException("lock_settings: '" + e.getKey() + "' is not a setting's name"
                        + " (letters, digits, _ . -, at most 64)");
            }
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new IllegalArgumentException("lock_settings: " + e.getKey() + ": expected a string, number or"
                        + " boolean, got " + e.getValue());
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    /** Anomaly kinds given as a JSON array of names, as one text. */
    private static String kindList(Path file, String key, JsonNode array) throws SpecException {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (JsonNode entry : array) {
            if (!entry.isTextual()) {
                throw new SpecException(file + ": " + key + ": expected anomaly kinds as strings, got " + entry);
            }
            names.add(entry.asText());
        }
        return String.join(" ", names);
    }

    /** A nemesis given as a JSON array of timeline entries, as one text. */
    private static String timeline(Path file, JsonNode array) throws SpecException {
        StringBuilder s = new StringBuilder();
        for (JsonNode entry : array) {
            if (!entry.isTextual()) {
                throw new SpecException(file + ": nemesis: expected timeline entries as strings, got " + entry);
            }
            s.append(s.length() == 0 ? "" : "; ").append(entry.asText());
        }
        return s.toString();
    }

    /** The default value of every key, as text, from {@link Keys}. */
    private static final Map<String, String> DEFAULT_VALUES = java.util.Collections.unmodifiableMap(Keys.defaults());

    /** The spec of {@link #DEFAULT_VALUES}, for {@link TestSpec#DEFAULTS}. */
    static TestSpec defaults() {
        try {
            return build("defaults", DEFAULT_VALUES);
        } catch (SpecException e) {
            throw new IllegalStateException(e.getMessage());
        }
    }

    /**
     * Returns {@code spec} with the given keys set from their text forms.
     *
     * @throws SpecException naming {@code source} and the key, for an unknown key or a value of the wrong type
     */
    public static TestSpec with(String source, TestSpec spec, Map<String, String> overrides) throws SpecException {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        spec.toMap().forEach((k, v) -> m.put(k, String.valueOf(v)));
        for (Map.Entry<String, String> e : overrides.entrySet()) {
            if (!m.containsKey(e.getKey())) {
                throw new SpecException(source + ": " + e.getKey() + ": unknown key (expected one of " + m.keySet()
                        + ")");
            }
            m.put(e.getKey(), e.getValue());
        }
        if (overrides.containsKey("hosts") && !overrides.containsKey("nodes") && !overrides.get("hosts").isBlank()) {
            m.put("nodes", Integer.toString(SshOptions.hosts(overrides.get("hosts")).size())); // a server on each host
        }
        if (overrides.containsKey("lock_class") || overrides.containsKey("lock_jar")) {
            // another lock: what the last one promised is asked again unless the overrides say it
            m.put("lock_promises", overrides.getOrDefault("lock_promises", ""));
            m.put("lock_backend", overrides.getOrDefault("lock_backend", ""));
        }
        if (!overrides.getOrDefault("recipe", "user").equals("user") && !overrides.containsKey("lock_class")) {
            m.put("lock_class", ""); // a recipe named now replaces a lock from a jar named before
            m.put("lock_jar", "");
        }
        if (!m.get("lock_class").isEmpty()) {
            UserLocks.declare(source, m); // reading a lock's keys asks it what they do not say, once
        }
        return build(source, m);
    }

    /**
     * Builds a spec from every key's text form, starting nothing; each value that cannot be read is named with its
     * key.
     */
    private static TestSpec build(String source, Map<String, String> m) throws SpecException {
        LockRecipe recipe = m.get("lock_class").isEmpty() ? LibraryLocks.recipe(source, parsed(source, "recipe", m,
                LockRecipe::parse), m.get("library_version")) : UserLocks.recipe(source, m);
        ClientMode mode = ClientMode.parse(m.get("client_mode"));
        if (mode == null) {
            throw new SpecException(source + ": client_mode: expected ignore, stop-on-suspended or stop-on-lost, got '"
                    + m.get("client_mode") + "'");
        }
        ClusterKind kind = ClusterKind.parse(m.get("cluster"));
        if (kind == null) {
            throw new SpecException(source + ": cluster: expected local, container, netns or ssh, got '"
                    + m.get("cluster") + "'");
        }
        ToxiproxyChoice proxy = parsed(source, "proxy", m, ToxiproxyChoice::parse);
        String expect = m.get("expect");
        Verdict verdict = null;
        if (!expect.isEmpty() && !expect.equals("any")) {
            verdict = java.util.Arrays.stream(Verdict.values()).filter(v -> v.wireName().equals(expect)).findFirst()
                    .orElseThrow(() -> new SpecException(source + ": expect: expected valid, invalid, unknown or any, got '"
                            + expect + "'"));
        }
        try {
            ClusterSpec cluster = new ClusterSpec(kind, (int) number(source, m, "nodes"), (int) number(source, m,
                    "tick_ms"), number(source, m, "container_check_ms"), m.get("zookeeper"));
            ClientSpec clients = new ClientSpec((int) number(source, m, "clients"), number(source, m,
                    "session_timeout_ms"), mode, (int) number(source, m, "reentry_depth"), m.get("curator"));
            WorkloadSpec workload = new WorkloadSpec((int) number(source, m, "keys"), number(source, m, "time_s"),
                    number(source, m, "warmup_s"), number(source, m, "hold_ms"), number(source, m, "hold_max_ms"),
                    number(source, m, "acquire_timeout_ms"), (int) number(source, m, "try_acquire_pct"),
                    (int) number(source, m, "read_pct"), (int) number(source, m, "rate"),
                    (int) number(source, m, "downgrade_pct"));
            PartitionerChoice partitioner = PartitionerChoice.parse(m.get("partitioner"));
            if (partitioner == null) {
                throw new SpecException(source + ": partitioner: expected auto, toxiproxy or iptables, got '"
                        + m.get("partitioner") + "'");
            }
            FaultSpec faults = new FaultSpec(m.get("nemesis"), number(source, m, "quiesce_ms"), proxy, partitioner);
            for (Keys.Key k : Keys.ALL) {
                String v = m.get(k.name());
                if (k.type() == Keys.Type.BOOL && !v.equals("true") && !v.equals("false")) {
                    throw new SpecException(source + ": " + k.name() + ": expected true or false, got '" + v + "'");
                }
            }
            lockSettings(m.get("lock_settings")); // read once here, so a bad one stops the run now
            String appendOnly = m.get("redis_appendonly");
            boolean leaseAsked = !m.get("lease_ms").isBlank();
            RedisSpec redis = new RedisSpec(leaseAsked ? number(source, m, "lease_ms") : LockSettings.LEASE_MS,
                    appendOnly.equals("true"), (int) number(source, m, "redis_timeout_ms"), leaseAsked);
            for (Keys.Key k : Keys.ALL) {
                if (k.ranged()) {
                    long v = number(source, m, k.name());
                    if (v < k.min() || v > k.max()) {
                        throw new SpecException(source + ": " + k.name() + ": expected " + k.min() + " to " + k.max()
                                + ", got " + v);
                    }
                }
            }
            TestSpec read = new TestSpec(m.get("name"), number(source, m, "seed"), recipe, cluster, clients,
                    workload, faults, new CheckSpec(verdict, byVersion(source, "expect_by_curator", m),
                    byVersion(source, "expect_by_zookeeper", m),
                    number(source, m, "acquire_slack_ms"), number(source, m, "expect_memory_growth_mb"), expect.equals("any"),
                    new AnomalyExpectation(AnomalyExpectation.parseKinds("expect_anomalies", m.get("expect_anomalies")),
                            AnomalyExpectation.parseKinds("expect_no_anomalies", m.get("expect_no_anomalies")))),
                    redis, m);
            // the values as the spec says them (a recipe's canonical name, what a user's factory promised): two specs
            // of the same test are equal however their keys were spelled
            Map<String, String> canonical = new java.util.LinkedHashMap<>();
            read.toMap().forEach((k, v) -> canonical.put(k, String.valueOf(v)));
            return new TestSpec(read.name(), read.seed(), read.recipe(), read.cluster(), read.clients(),
                    read.workload(), read.faults(), read.checking(), read.redis(), canonical);
        } catch (IllegalArgumentException e) { // a record's own range check, which names its key
            throw new SpecException(source + ": " + e.getMessage());
        }
    }

    private static java.util.List<CheckSpec.ByVersion> byVersion(String source, String key, Map<String, String> m)
            throws SpecException {
        try {
            return CheckSpec.parseByVersion(m.get(key));
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": " + key + ": " + e.getMessage());
        }
    }

    /** What cluster ssh needs: hosts, one per server, and ZooKeeper servers it can run there. */
    private static void validateSsh(String source, TestSpec s) throws SpecException {
        ClusterSpec c = s.cluster();
        java.util.List<String> hosts = SshOptions.hosts(s.text("hosts"));
        java.util.List<String> clientHosts = SshOptions.hosts(s.text("client_hosts"));
        if (!c.ssh()) {
            for (String key : java.util.List.of("hosts", "client_hosts")) {
                if (!SshOptions.hosts(s.text(key)).isEmpty()) {
                    throw new SpecException(source + ": " + key + ": names hosts of cluster ssh, got cluster "
                            + c.kind().wireName() + " (add --cluster ssh)");
                }
            }
            return;
        }
        for (String h : clientHosts) {
            if (!h.matches("[A-Za-z0-9][A-Za-z0-9.:-]*")) {
                throw new SpecException(source + ": client_hosts: '" + h + "' is not a host name or address");
            }
        }
        if (clientHosts.stream().distinct().count() != clientHosts.size()) {
            throw new SpecException(source + ": client_hosts: a host is named twice: "
                    + String.join(",", clientHosts));
        }
        if (!clientHosts.isEmpty()) {
            if (s.recipe().user() != null || s.clients().agents() || s.flag("client_agents")) {
                throw new SpecException(source + ": client_hosts: agents on client hosts run lockchaos' own recipes"
                        + " on the linked Curator (" + ClientSpec.LINKED + "); a lock of your own, another Curator"
                        + " or client_agents run in agents on this machine (drop client_hosts)");
            }
            refuseFaults(source, s, f -> f.needsClientProxies()
                    ? "cuts a client's proxy on this machine; clients on client_hosts connect to the servers"
                    + " directly (cut servers apart, or run the clients here: drop client_hosts)"
                    : f.kind() == FaultKind.PAUSE_CLIENT
                    ? "stops a client's process on this machine; clients on client_hosts run elsewhere (drop"
                    + " client_hosts)"
                    : f.movesClientClocks()
                    ? "the clock library is built and loaded on this machine, not on client_hosts (drop"
                    + " client_hosts)" : null);
        }
        if (hosts.isEmpty()) {
            throw new SpecException(source + ": hosts: cluster ssh needs the hosts, one server each: e.g. --hosts"
                    + " n1,n2,n3");
        }
        for (String h : hosts) {
            if (!h.matches("[A-Za-z0-9][A-Za-z0-9.:-]*")) {
                throw new SpecException(source + ": hosts: '" + h + "' is not a host name or address");
            }
        }
        if (hosts.stream().distinct().count() != hosts.size()) {
            throw new SpecException(source + ": hosts: a host is named twice: " + String.join(",", hosts));
        }
        if (hosts.size() != c.nodes()) {
            throw new SpecException(source + ": hosts: " + hosts.size() + " hosts for nodes " + c.nodes() + ": one"
                    + " server per host");
        }
        if (!LockServices.of(s.recipe()).clusters().contains(ClusterKind.SSH)) {
            throw new SpecException(source + ": cluster: ssh runs " + servicesTaking(ClusterKind.SSH)
                    + " servers; " + s.recipe().wireName() + " runs on " + s.recipe().backend().name().toLowerCase(
                    java.util.Locale.ROOT));
        }
        refuseFaults(source, s, f -> {
            FaultKind k = f.kind();
            if (k.damagesDisk()) {
                return "disk faults edit the servers' transaction logs on this machine's disk (cluster local or"
                        + " netns)";
            } else if (k.changesMembership()) {
                return "membership changes reconfigure servers this machine runs (cluster local or netns)";
            } else if (k == FaultKind.BANDWIDTH && !f.target().equals("clients")) {
                return "a bandwidth limit between servers replaces the queue of a host's network interface, which"
                        + " is the host's own: limit the target clients instead";
            }
            return null;
        });
    }

    /** What the fault schedule needs of the cluster and the partitioner: each refusal names its key. */
    private static void validateSchedule(String source, TestSpec s) throws SpecException {
        ClusterSpec cluster = s.cluster();
        try {
            Schedule schedule = s.schedule();
            if (schedule.partitionsServers() && cluster.nodes() == 1) {
                throw new SpecException(source + ": nemesis: partitions need 3 or 5 nodes, got 1");
            }
            if (schedule.hasRing() && cluster.nodes() < 5) {
                throw new SpecException(source + ": nemesis: a ring partition needs 5 nodes (with " + cluster.nodes()
                        + " every server is its neighbours' neighbour and nothing is cut)");
            }
            PartitionerChoice partitioner = s.faults().partitioner();
            if (partitioner == PartitionerChoice.TOXIPROXY && (cluster.namespaces() || cluster.ssh())) {
                throw new SpecException(source + ": partitioner: toxiproxy cannot reach servers " + (cluster.ssh()
                        ? "on other hosts" : "in namespaces") + " (its peer proxies listen on the runner's loopback):"
                        + " use iptables, the default there");
            }
            if (partitioner == PartitionerChoice.IPTABLES && !cluster.namespaces() && !cluster.containers()
                    && !cluster.ssh()) {
                throw new SpecException(source + ": partitioner: iptables needs servers with network namespaces of"
                        + " their own: cluster netns or container");
            }
            boolean iptables = cluster.namespaces() || cluster.ssh() || partitioner == PartitionerChoice.IPTABLES;
            for (FaultEvent e : schedule.events()) {
                Fault f = e.fault();
                FaultKind k = f.kind();
                boolean servers = !f.target().equals("clients") && !f.target().equals("data");
                if (k == FaultKind.PACKET_LOSS && (!iptables
                        || !f.target().equals("servers"))) {
                    throw new SpecException(source + ": nemesis: packet-loss drops packets between servers: it takes"
                            + " the target servers and needs cluster netns or partitioner iptables (proxies carry"
                            + " streams, not packets)");
                }
                if (f.movesClientClocks()) {
                    clientClockProblem(source, s, f);
                }
                if (k == FaultKind.PAUSE_CLIENT && f.target().endsWith("waiter")) {
                    waiterPauseProblem(source, s, f);
                }
                if (k == FaultKind.INTERRUPT && s.inAgents()) {
                    throw new SpecException(source + ": nemesis: interrupt reaches a thread of the runner's JVM; "
                            + s.recipe().wireName() + "'s clients run in client agents here (a lock of your own,"
                            + " curator VERSION, a library's recipe or client_agents)");
                }
                if (iptables && servers && (k == FaultKind.LATENCY
                        || k == FaultKind.RESET)) {
                    throw new SpecException(source + ": nemesis: " + k.wireName() + " between servers cut with iptables"
                            + " needs netem, which this kernel lacks: use the target clients, or the proxies (cluster"
                            + " local, or partitioner toxiproxy)");
                }
            }
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": nemesis: " + e.getMessage());
        }
    }

    /** Where the protected data lives, and the faults of its path: each refusal names its key. */
    private static void validateData(String source, TestSpec s) throws SpecException {
        LockService data;
        try {
            data = s.dataService();
            if (s.dataFencing() != DataFencing.NONE && data == null) {
                throw new IllegalArgumentException("data_fencing: " + s.dataFencing().wireName() + " conditions"
                        + " writes to a database: it needs protected_data postgres");
            }
            if (s.afterUnknownCommit() != AfterUnknownCommit.RETIRE && data == null) {
                throw new IllegalArgumentException("after_unknown_commit: " + s.afterUnknownCommit().wireName()
                        + " adds again what a commit to a database may have taken: it needs protected_data postgres");
            }
            if (!List.of("retire", "keep-client").contains(s.text("after_unknown"))) {
                throw new IllegalArgumentException("after_unknown: expected retire or keep-client, got '"
                        + s.text("after_unknown") + "'");
            }
            if (!s.dataReplication().equals("none") && data == null) {
                throw new IllegalArgumentException("data_replication: replicates the protected data in a database:"
                        + " it needs protected_data postgres");
            }
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": " + e.getMessage());
        }
        if (data != null && !s.recipe().protectsResources()) {
            throw new SpecException(source + ": protected_data: " + s.recipe().wireName() + " admits several holders"
                    + " at once, which run no critical section");
        }
        boolean ownData = LockServices.of(s.recipe()).keepsOwnData(s.recipe());
        if (data != null && ownData) {
            throw new SpecException(source + ": protected_data: " + s.recipe().wireName() + " keeps the data in the"
                    + " lock's own store, on its own server: leave protected_data out");
        }
        if (data != null && s.cluster().kind() != ClusterKind.LOCAL) {
            throw new SpecException(source + ": protected_data: the database runs beside servers of cluster local,"
                    + " got cluster " + s.cluster().kind().wireName());
        }
        for (FaultEvent e : s.schedule().events()) {
            Fault f = e.fault();
            // a lock that keeps its own data commits it with its release, whose answer can be lost
            if (f.onData() && data == null && !(f.kind() == FaultKind.LOSE_COMMIT && ownData)) {
                throw new SpecException(source + ": nemesis: " + f.kind().wireName() + " " + f.target() + " acts on"
                        + (f.onDataServers() ? " the servers of" : " the path to") + " the protected data in a"
                        + " database: it needs protected_data postgres"
                        + (f.kind() == FaultKind.LOSE_COMMIT ? " (or a lock that keeps it: pg-advisory-xact,"
                        + " etcd-lock-fenced)" : ""));
            }
        }
        String refusal = data == null ? null : data.dataRefusal(s.dataReplication(), s.schedule().events().stream()
                .map(FaultEvent::fault).filter(Fault::onDataServers).toList());
        if (refusal != null) {
            throw new SpecException(source + ": " + refusal);
        }
    }

    /**
     * Client clocks move in client agents (the library is loaded as a JVM starts): clients of a lock of the user's
     * own or of another Curator; the holder's alone only where each client has an agent of its own.
     */
    private static void clientClockProblem(String source, TestSpec s, Fault f)
            throws SpecException {
        String at = source + ": nemesis: " + f.kind().wireName() + " " + f.target() + ": ";
        if (!s.inAgents()) {
            throw new SpecException(at + "client clocks move in client agents: a lock of your own (lock_class),"
                    + " curator VERSION, or client_agents true for an etcd recipe; " + s.recipe().wireName()
                    + "'s clients run in the runner's JVM");
        }
        if (f.movesOneClientsClock() && (s.clients().count() > ClientSpec.MAX_DEDICATED_AGENTS
                || s.clients().count() < 2)) {
            throw new SpecException(at + "the " + (f.target().equals("holder") ? "holder's" : f.target() + "'s")
                    + " clock moves alone only where each client has an agent of its own: clients 2 to "
                    + ClientSpec.MAX_DEDICATED_AGENTS + ", got " + s.clients().count()
                    + " (target clients moves every client's)");
        }
    }

    /** A waiter stops whole: its own client agent, which only a run of at most 16 clients in agents gives it. */
    private static void waiterPauseProblem(String source, TestSpec s, Fault f)
            throws SpecException {
        String at = source + ": nemesis: pause-client " + f.target() + ": ";
        if (!s.inAgents()) {
            throw new SpecException(at + "a waiter pauses as its own client agent stops: a lock of your own"
                    + " (lock_class), curator VERSION, or client_agents true for an etcd recipe; "
                    + s.recipe().wireName() + "'s clients run in the runner's JVM");
        }
        if (s.clients().count() < 2 || s.clients().count() > ClientSpec.MAX_DEDICATED_AGENTS) {
            throw new SpecException(at + "a waiter has an agent of its own only with clients 2 to "
                    + ClientSpec.MAX_DEDICATED_AGENTS + ", got " + s.clients().count());
        }
    }

    /** What client agents (a Curator version other than the linked one) can run. */
    private static void validateAgents(String source, TestSpec s) throws SpecException {
        ClientSpec clients = s.clients();
        LockService.Agents agents = LockServices.of(s.recipe()).agents();
        if (s.flag("client_agents") && (agents != LockService.Agents.OWN_CLASSPATH || s.recipe().user() != null)) {
            throw new SpecException(source + ": client_agents: etcd recipes run in client agents on lockchaos' own"
                    + " classpath; " + (s.recipe().user() != null ? "a lock of your own always runs in them"
                    : s.recipe().wireName() + (agents == LockService.Agents.CURATOR_VERSIONS
                    ? " runs in them with curator VERSION" : "'s clients run in the runner's JVM"))
                    + " (drop client_agents)");
        }
        if (s.recipe().user() != null && s.cluster().containers()) {
            throw new SpecException(source + ": cluster: a lock from your jar runs in client agents, beside local or"
                    + " netns servers, not containers (use cluster local)");
        }
        if (clients.agents()) {
            if (!VersionResolver.plausible(clients.curator())) {
                throw new SpecException(source + ": curator: expected " + ClientSpec.LINKED + " or a version such as"
                        + " 5.4.0, got '" + clients.curator() + "'");
            }
            boolean user = s.recipe().user() != null;
            if (agents != LockService.Agents.CURATOR_VERSIONS || !s.recipe().curator() && !user) {
                throw new SpecException(source + ": curator: client agents run Curator's recipes"
                        + (user ? " and ZooKeeper locks of your own; yours runs on " + s.recipe().backend().name()
                        .toLowerCase(java.util.Locale.ROOT) : "; " + s.recipe().wireName() + " is not one")
                        + " (use curator " + ClientSpec.LINKED + ")");
            }
            if (s.cluster().containers()) {
                throw new SpecException(source + ": curator: client agents run beside local or netns servers, not"
                        + " containers (use cluster local)");
            }
        }
    }

    /** Refuses the first fault of the schedule that {@code why} has a reason against, naming it and the reason. */
    private static void refuseFaults(String source, TestSpec s,
                                     java.util.function.Function<Fault, String> why)
            throws SpecException {
        for (FaultEvent e : s.schedule().events()) {
            Fault f = e.fault();
            String reason = why.apply(f);
            if (reason != null) {
                throw new SpecException(source + ": nemesis: " + f.kind().wireName() + (f.target().isEmpty() ? ""
                        : " " + f.target()) + ": " + reason);
            }
        }
    }

    /** {@code parse} applied to key {@code key}'s value, its IllegalArgumentException as a SpecException. */
    private static <T> T parsed(String source, String key, Map<String, String> m,
                                java.util.function.Function<String, T> parse) throws SpecException {
        try {
            return parse.apply(m.get(key));
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": " + key + ": " + e.getMessage());
        }
    }

    private static long number(String source, Map<String, String> m, String key) throws SpecException {
        String v = m.get(key);
        try {
            long n = Long.parseLong(v);
            if (Keys.named(key).type() == Keys.Type.INT && (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE)) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new SpecException(source + ": " + key + ": expected a whole number, got '" + v + "'");
        }
    }

    /** The names of the services whose servers run on {@code kind} ("ZooKeeper", or several joined by "or"). */
    private static String servicesTaking(ClusterKind kind) {
        List<String> names = new ArrayList<>();
        for (LockService s : LockServices.all()) {
            if (s.clusters().contains(kind)) {
                names.add(s.name());
            }
        }
        return String.join(" or ", names);
    }

    /** The parts of {@code s} a lock service judges. */
    static ServiceSpec view(TestSpec s) {
        return new ServiceSpec(s.recipe(), s.cluster().kind(), s.cluster().nodes(), s.clients().reentryDepth(),
                s.schedule(), s.faults().nemesis(), key -> key.equals("lease_ms")
                ? (Object) s.redis().leaseMillis() // the lease the recipe takes, the declaration's when none is asked
                : Keys.value(s, key));
    }

    /**
     * What the lock service says of the spec (its own set-ups, keys and faults), then what each other service says of
     * what is its own: the first refusal, with the file named.
     */
    private static void serviceRefusal(String source, TestSpec s) throws SpecException {
        ServiceSpec view = view(s);
        LockService own = LockServices.of(s.recipe());
        List<String> why = new ArrayList<>();
        for (LockService other : LockServices.all()) {
            if (other != own) {
                why.add(other.refusalOfOthers(view));
            }
        }
        why.add(own.refusal(view));
        for (String w : why) {
            if (w != null) {
                throw new SpecException(source + ": " + w);
            }
        }
    }

    /**
     * Checks that the spec can run.
     *
     * @throws SpecException naming the key whose value is impossible
     */
    public static TestSpec validate(String source, TestSpec s) throws SpecException {
        ClusterSpec cluster = s.cluster();
        ClientSpec clients = s.clients();
        WorkloadSpec w = s.workload();
        if (w.keys() > clients.count() && !s.recipe().spansKeys()) {
            throw new SpecException(source + ": keys: expected 1 to clients (" + clients.count() + "), got "
                    + w.keys());
        }
        if (s.recipe().spansKeys() && w.keys() < 2) {
            throw new SpecException(source + ": keys: a multi-lock needs at least 2 keys, got " + w.keys());
        }
        LockService service = LockServices.of(s.recipe());
        if (w.downgradePct() > 0 && s.recipe().kind() != LockRecipe.Kind.READ_WRITE) {
            throw new SpecException(source + ": downgrade_pct: only a read/write lock (recipe rw) downgrades, got "
                    + s.recipe().wireName());
        }
        if (w.downgradePct() > 0 && (w.readPct() == 100 || clients.reentryDepth() != 1)) {
            throw new SpecException(source + ": downgrade_pct: writers downgrade an outer hold: it needs writers"
                    + " (read_pct below 100, got " + w.readPct() + ") and reentry_depth 1 (got "
                    + clients.reentryDepth() + ")");
        }
        if (service.majority() && s.cluster().nodes() % 2 == 0) {
            // a quorum of an even ensemble tolerates no more failures than the odd one below it
            throw new SpecException(source + ": nodes: expected 1, 3 or 5, got " + s.cluster().nodes());
        }
        validateSsh(source, s);
        validateSchedule(source, s);
        validateData(source, s);
        validateAgents(source, s);
        serviceRefusal(source, s);
        long min = 2L * cluster.tickMillis();
        long max = 20L * cluster.tickMillis();
        if (clients.sessionTimeoutMillis() < min || clients.sessionTimeoutMillis() > max) {
            throw new SpecException(source + ": session_timeout_ms: the server allows " + min + " to " + max
                    + " ms with tick_ms " + cluster.tickMillis() + ", got " + clients.sessionTimeoutMillis());
        }
        return s;
    }
}
