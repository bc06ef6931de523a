package io.lockchaos.core;

import io.lockchaos.client.LockSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every workload key, declared once, in the spirit of Jepsen's option specs: its name, type, default, the command-line
 * option that sets it (if any), its help text, and how to read it back from a spec. The defaults, the whole-number
 * check, test.json, the run command's option names and the manual's table of keys are all derived from this list.
 */
public final class Keys {
    private Keys() {
    }

    /** How a key's text is read. */
    public enum Type {
        /** A whole number that fits an int. */
        INT,
        /** A whole number. */
        LONG,
        /** true or false. */
        BOOL,
        /** Text, read by the code that uses it (a name, a schedule, a choice among words). */
        TEXT
    }

    /** How the run command's option for a key is typed. */
    public enum OptionText {
        /** As the key's own text. */
        AS_IS,
        /** A duration in whole seconds ({@code 30}, {@code 30s}, {@code 2m}) for a key counted in seconds. */
        WHOLE_SECONDS
    }

    /**
     * One key.
     *
     * @param name as in workload files and test.json
     * @param type how its text is read
     * @param defaultText its default, as text
     * @param shownDefault its default as the manual shows it (e.g. "none" for empty text)
     * @param option the run command's option that sets it, or null
     * @param help what it means, in Markdown, one line
     * @param value reads it back from a spec, for test.json
     * @param optionText how the option is typed
     * @param min the least whole number it takes ({@link Long#MIN_VALUE}: no check here; its record checks it)
     * @param max the most
     */
    public record Key(String name, Type type, String defaultText, String shownDefault, String option, String help,
                      Function<TestSpec, Object> value, OptionText optionText, long min, long max) {
        /** The same key, its option typed as a duration in whole seconds. */
        Key seconds() {
            return new Key(name, type, defaultText, shownDefault, option, help, value, OptionText.WHOLE_SECONDS, min,
                    max);
        }

        /** Whether {@link TestSpecs} checks its range (a key read by {@link TestSpec#number} has one). */
        public boolean ranged() {
            return min != Long.MIN_VALUE || max != Long.MAX_VALUE;
        }

        /** The option's help: the manual's, without its Markdown, and the default as the option is typed. */
        public String optionHelp() {
            String shown = optionText == OptionText.WHOLE_SECONDS ? defaultText + "s" : shownDefault;
            return help.replace("`", "") + " (default: " + shown + ")";
        }
    }

    private static Key key(String name, Type type, String dflt, String option, String help,
                           Function<TestSpec, Object> value) {
        return new Key(name, type, dflt, dflt.isEmpty() ? "none" : dflt, option, help, value, OptionText.AS_IS,
                Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /**
     * A key no record holds: the code that uses it reads it from the spec ({@link TestSpec#number}, {@link
     * TestSpec#text}, {@link TestSpec#flag}), and its range is checked here. Declaring it is all a new key needs
     * besides that code (see docs/architecture.md).
     */
    private static Key key(String name, Type type, String dflt, long min, long max, String option, String help) {
        Function<TestSpec, Object> value = switch (type) {
            case INT, LONG -> s -> s.number(name);
            case BOOL -> s -> s.flag(name);
            case TEXT -> s -> s.text(name);
        };
        return new Key(name, type, dflt, dflt.isEmpty() ? "none" : dflt, option, help, value, OptionText.AS_IS,
                min, max);
    }

    /** In the order of test.json and of the manual's table. */
    public static final List<Key> ALL = List.of(
            key("name", Type.TEXT, "default", null, "the test's folder under `histories/`", TestSpec::name),
            key("recipe", Type.TEXT, "reentrant-mutex", "--recipe", "the lock under test (see below)",
                    s -> s.recipe().wireName()),
            key("lock_class", Type.TEXT, "", "--lock-class", "your lock: the `io.lockchaos.api.LockFactory` class"
                    + " that makes its clients (with `lock_jar`; replaces `recipe`; see Your own lock)",
                    s -> s.recipe().fromJar() == null ? "" : s.recipe().fromJar().className()),
            key("lock_jar", Type.TEXT, "", "--lock-jar", "your lock's classpath: jars and folders separated by `:`"
                    + " (`lib/*` takes every jar in `lib`), loaded only in client agents",
                    s -> s.recipe().fromJar() == null ? "" : String.join(java.io.File.pathSeparator,
                            s.recipe().fromJar().classpath())),
            key("lock_promises", Type.TEXT, "", null, "what your lock promises, e.g. `exclusive reentrant"
                    + " owner-release fifo`; by default asked of its factory (test.json records the answer)",
                    s -> s.recipe().fromJar() == null ? "" : s.recipe().fromJar().promises().words()),
            key("lock_backend", Type.TEXT, "", null, "what your lock runs on, `zookeeper`, `redis` or `postgres`; by"
                    + " default asked of its factory", s -> s.recipe().fromJar() == null ? ""
                    : s.recipe().fromJar().backend().name().toLowerCase(java.util.Locale.ROOT)),
            key("library_version", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, "--library-version", "a library's"
                    + " recipe (`shedlock-jdbc`, `shedlock-redis`, `shedlock-zookeeper`, `spring-jdbc`, `spring-redis`, `spring-zookeeper`): the library's release, resolved from Maven Central and loaded in client"
                    + " agents; none: the release the recipe is compiled against (see Lock libraries)"),
            key("lock_settings", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, null, "settings for your lock or a library's, a JSON"
                    + " object (e.g. `{\"using_db_time\": true}` for `shedlock-jdbc`): its factory reads them as"
                    + " `LockContext.settings()`, names and values as text (see Your own lock, Lock libraries)"),
            key("nodes", Type.INT, "3", "--nodes", "ZooKeeper servers: 1, 3 or 5 (Redis instances for a Redis recipe;"
                    + " PostgreSQL servers for a database lock: 1, or 2 to 5 with `pg_replication`)",
                    s -> s.cluster().nodes()),
            key("clients", Type.INT, "10", "--clients", "workers, each with its own session",
                    s -> s.clients().count()),
            key("keys", Type.INT, "1", "--keys", "lock keys; the seed rotates which worker uses which",
                    s -> s.workload().keys()),
            key("time_s", Type.LONG, "10", "--time", "the main phase", s -> s.workload().timeSeconds()).seconds(),
            key("hold_ms", Type.LONG, "10", null, "each hold lasts `hold_ms`, or a random time in [`hold_ms`,"
                    + " `hold_max_ms`]", s -> s.workload().holdMillis()),
            key("acquire_timeout_ms", Type.LONG, "1000", null, "how long an acquire waits",
                    s -> s.workload().acquireTimeoutMillis()),
            key("session_timeout_ms", Type.LONG, Long.toString(LockSettings.SESSION_TIMEOUT_MS), null,
                    "the clients' session timeout",
                    s -> s.clients().sessionTimeoutMillis()),
            key("tick_ms", Type.INT, "200", null, "the servers' tickTime", s -> s.cluster().tickMillis()),
            new Key("seed", Type.LONG, "0", "time", "--seed", "the run's seed, printed at the start and stored in"
                    + " `test.json`; 0 (or no `--seed`) takes one from the clock", TestSpec::seed, OptionText.AS_IS,
                    Long.MIN_VALUE, Long.MAX_VALUE),
            key("client_mode", Type.TEXT, "ignore", "--client-mode", "`ignore`, `stop-on-suspended` or"
                    + " `stop-on-lost`", s -> s.clients().mode().wireName()),
            key("reentry_depth", Type.INT, "1", "--reentry-depth", "acquires per hold",
                    s -> s.clients().reentryDepth()),
            key("warmup_s", Type.LONG, "0", "--warmup", "a warm-up phase before the main one: the same workload, no"
                    + " faults", s -> s.workload().warmupSeconds()).seconds(),
            key("hold_max_ms", Type.LONG, "0", null, "see `hold_ms`; 0 holds exactly `hold_ms`",
                    s -> s.workload().holdMaxMillis()),
            key("try_acquire_pct", Type.INT, "0", null, "the percentage of acquires that are single tries (timeout"
                    + " 0)", s -> s.workload().tryAcquirePct()),
            key("read_pct", Type.INT, "50", null, "read/write locks: the percentage of workers that read (a mix keeps"
                    + " at least one of each)", s -> s.workload().readPct()),
            key("downgrade_pct", Type.INT, "0", null, "read/write locks: the percentage of write holds that end in a"
                    + " downgrade (the writer takes the read lock, releases the write lock, holds the read lock as"
                    + " long again, releases it; CURATOR-621)", s -> s.workload().downgradePct()),
            key("rate", Type.INT, "0", null, "cycles per second per worker, up to 500 (a random stagger with mean"
                    + " 1/rate, in whole ms); 0 is as fast as possible", s -> s.workload().rate()),
            key("nemesis", Type.TEXT, "", "--nemesis", "the fault schedule: a string of `;`-separated entries or a"
                    + " JSON array of them (see Faults)", s -> s.faults().nemesis()),
            key("quiesce_ms", Type.LONG, "-1", null, "the settling time after the final heal; -1 is the session"
                    + " timeout plus 1 s when there are faults, else 0", s -> s.faults().quiesceMillis()),
            key("proxy", Type.TEXT, "embedded", "--proxy", "the Toxiproxy API for network faults: `embedded` or"
                    + " `http://host:port` of a toxiproxy-server", s -> s.faults().proxy().wireName()),
            key("partitioner", Type.TEXT, "auto", "--partitioner", "what cuts servers apart: `toxiproxy` (a proxy per"
                    + " directed pair of servers), `iptables` (DROP rules in the servers' network namespaces: cluster"
                    + " `netns` or `container`, needs root) or `auto` (iptables for netns, toxiproxy otherwise); see"
                    + " Faults", s -> s.faults().partitioner().wireName()),
            key("expect", Type.TEXT, "", null, "the verdict a scenario should reach: `run` prints whether it did"
                    + " (tests assert it); `any`: whichever it reaches, as long as it reaches one (a soak, whose"
                    + " expectation is its memory bound; a workload whose verdict turns on a race in the service, as"
                    + " etcd's partition workloads)", s -> s.checking().expectText()),
            key("cluster", Type.TEXT, "local", "--cluster", "`local` (child JVMs), `container` (Docker via"
                    + " Testcontainers; see Docker), `netns` (child JVMs in network namespaces of their own, cut"
                    + " apart with iptables; needs root; see Faults) or `ssh` (a server on each of `hosts`, reached"
                    + " over SSH; see Real hosts)", s -> s.cluster().kind().wireName()),
            key("hosts", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, "--hosts", "cluster `ssh`: the hosts,"
                    + " comma-separated, one ZooKeeper server each (1, 3 or 5; `nodes` follows them)"),
            key("client_hosts", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, "--client-hosts", "cluster `ssh`:"
                    + " hosts that run the clients, a client agent on each (comma-separated; they may be `hosts`"
                    + " too), reached over SSH as those are; none: the clients run in this JVM"),
            key("ssh_user", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, "--ssh-user", "cluster `ssh`: the login"
                    + " user on every host (root, or one allowed `sudo -n iptables`); none: yours"),
            key("ssh_key", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, "--ssh-key", "cluster `ssh`: the private"
                    + " key (OpenSSH format, RSA or ECDSA, unencrypted); none: `~/.ssh/id_ecdsa`, else"
                    + " `~/.ssh/id_rsa`"),
            key("ssh_port", Type.INT, "22", 1, 65_535, "--ssh-port", "cluster `ssh`: the hosts' SSH port"),
            key("ssh_known_hosts", Type.TEXT, "", Long.MIN_VALUE, Long.MAX_VALUE, "--ssh-known-hosts", "cluster"
                    + " `ssh`: the known-hosts file every host's key must be in; none: `~/.ssh/known_hosts`"),
            key("ssh_accept_new", Type.BOOL, "false", Long.MIN_VALUE, Long.MAX_VALUE, "--ssh-accept-new", "cluster"
                    + " `ssh`: `true` records the key of a host missing from the known-hosts file at first contact"
                    + " (a host whose recorded key changed is refused either way)"),
            key("lease_ms", Type.LONG, "", null,
                    "Redis, etcd and lease recipes: the lock's time to live (etcd:"
                    + " whole seconds, at least 2); none: 10000 for them, and a lock of your own keeps its own"
                    + " (`LockContext.leaseAsked()` is empty)",
                    s -> s.redis().leaseText()),
            key("redis_appendonly", Type.BOOL, "false", null, "Redis recipes: `true` runs the instances with"
                    + " `appendonly yes` and `appendfsync always` (see Redis locks)", s -> s.redis().appendOnly()),
            key("redis_timeout_ms", Type.INT, Long.toString(LockSettings.REQUEST_TIMEOUT_MS), null,
                    "Redis recipes: Redlock's per-instance timeout",
                    s -> s.redis().instanceTimeoutMillis()),
            key("pg_replication", Type.TEXT, "none", Long.MIN_VALUE, Long.MAX_VALUE, null, "PostgreSQL recipes:"
                    + " `async` or `remote_apply` makes node 1 a primary and the other nodes its streaming replicas,"
                    + " commits waiting for none or for a replica's apply; the target of a `failover` takes over (see"
                    + " Database locks)"),
            key("protected_data", Type.TEXT, "memory", Long.MIN_VALUE, Long.MAX_VALUE, "--protected-data", "where"
                    + " the set a holder's critical section reads and writes back lives: `memory` (the runner's) or"
                    + " `postgres` (a table of a PostgreSQL server the run starts beside the lock's, each client"
                    + " through a proxy of its own: begin, read, hold, write, commit, then release; see Database"
                    + " work)"),
            key("data_fencing", Type.TEXT, "none", Long.MIN_VALUE, Long.MAX_VALUE, "--data-fencing",
                    "`protected_data postgres`: `none` writes unconditioned; `token` conditions each write on the"
                    + " grant's fencing token (`... WHERE fence <= token`); `claim` also raises the row's fence to"
                    + " the token as it reads (see Database work)"),
            key("data_replication", Type.TEXT, "none", Long.MIN_VALUE, Long.MAX_VALUE, "--data-replication",
                    "`protected_data postgres`: `async` or `remote_apply` gives the data's server, `data:1`, a"
                    + " streaming replica, `data:2`, commits waiting for none or for its apply; `failover data:2`"
                    + " promotes it (see Database work)"),
            key("after_unknown_commit", Type.TEXT, "retire", Long.MIN_VALUE, Long.MAX_VALUE,
                    "--after-unknown-commit", "`protected_data postgres`: after a commit that went unanswered,"
                    + " `retire` (Jepsen's way: the add is info, nobody adds it again), `retry` (the tutorial's: the"
                    + " worker adds the same element again in a new hold until one is acknowledged) or"
                    + " `retry_if_absent` (the retry adds it only when its read lacks it; see Database work)"),
            key("after_unknown", Type.TEXT, "retire", Long.MIN_VALUE, Long.MAX_VALUE,
                    "--after-unknown", "after an acquire, or a last release, whose outcome is unknown (it threw):"
                    + " `retire` (the process ends and its client closes, its session with it) or `keep-client` (the"
                    + " process ends, and its client, session and all, goes on for the next one, as an application"
                    + " keeps its one lock client when a call fails; see `release-cut-kept-client.json`)"),
            key("curator", Type.TEXT, ClientSpec.LINKED, "--curator", "`linked`: the Curator lockchaos is built with"
                    + " (5.9.0), clients in the runner's JVM; a version (e.g. `5.4.0`): clients in a client agent on"
                    + " that Curator, resolved from Maven Central (see Curator versions); with `lock_class`, that"
                    + " Curator ahead of the one `lock_jar` brings", s -> s.clients().curator()),
            key("client_agents", Type.BOOL, "false", Long.MIN_VALUE, Long.MAX_VALUE, "--client-agents", "etcd"
                    + " recipes: `true` runs the clients in client agents (child JVMs on lockchaos' own classpath; one"
                    + " per client, up to 16, when the schedule pauses clients), so that `pause-client` stops a"
                    + " client's whole process, a `waiter` too, and client clock faults apply (see etcd locks)"),
            key("zookeeper", Type.TEXT, ClusterSpec.LINKED, "--zookeeper", "`linked`: the servers run the ZooKeeper"
                    + " lockchaos is built with (" + ClusterSpec.LINKED_VERSION + "); a version (e.g. `3.5.10`): that"
                    + " release, resolved from Maven Central, its own QuorumPeerMain in each child JVM (cluster local"
                    + " or netns; cuts between servers need netns; see ZooKeeper ensembles)",
                    s -> s.cluster().zooKeeper()),
            key("first_server_id", Type.INT, "1", 1, 254, "--first-server-id", "ZooKeeper servers this machine"
                    + " runs (cluster local or netns): the myid of the first; the others follow. A server puts its"
                    + " myid in the top byte of the session ids it creates, so from 128 they are negative (see the"
                    + " bug zoo's `zookeeper-2901`)"),
            key("expect_by_curator", Type.TEXT, "", null, "the verdict expected per Curator version range, e.g."
                    + " `{\"<5.5.0\": \"invalid\", \">=5.5.0\": \"valid\"}`; first match wins, `expect` covers the"
                    + " rest (see Curator versions)", s -> s.checking().byCuratorText()),
            key("expect_by_zookeeper", Type.TEXT, "", null, "the verdict expected per ZooKeeper server release"
                    + " range, as `expect_by_curator` (a match here comes first); for `matrix --zookeeper` (see"
                    + " ZooKeeper ensembles)", s -> s.checking().byZooKeeperText()),
            key("expect_anomalies", Type.TEXT, "", null, "kinds of anomaly the run must show, each of them"
                    + " (`double-holder`, `lost-update`, ...: the names checkers report, separated by spaces or commas,"
                    + " or a JSON list); `run` prints whether it did and `--check-expect` counts it, as for `expect`",
                    s -> AnomalyExpectation.text(s.checking().anomalies().present())),
            key("expect_no_anomalies", Type.TEXT, "", null, "kinds of anomaly the run must not show (a workload"
                    + " that reproduces a double holder and must not leak: `leaked-lock`), as `expect_anomalies`",
                    s -> AnomalyExpectation.text(s.checking().anomalies().absent())),
            key("acquire_slack_ms", Type.LONG, "-1", null, "when 0 or more, acquires that return later than their"
                    + " timeout plus this slack are violations (`acquire-overrun`); -1 does not check",
                    s -> s.checking().acquireSlackMillis()),
            key("expect_memory_growth_mb", Type.LONG, "-1", null, "when 0 or more, the most the runner's live heap"
                    + " (in use after a full collection, which each minute's sample then runs) may grow, in MB, from"
                    + " the end of the run's first minute to its highest later sample in `resources.jsonl`; `run`"
                    + " prints it, and with `--check-expect` a run that grew more misses its expectation; -1 does not"
                    + " check (see CI: Soak)", s -> s.checking().memoryGrowthMb()),
            key("open_tries", Type.INT, "3", 1, 100, null, "how often a worker tries to open a client for a new"
                    + " process, a second apart, before it stops (its first one: before the run stops)"),
            key("stall_ms", Type.INT, "1000", 200, 600_000, null, "a gap longer than this between two wake-ups of"
                    + " the runner's heartbeat (every 100 ms) is a stall of the runner itself (stopped, paused with"
                    + " its machine, in a long GC): recorded as a `stall` op and in `runner_stalls`, and told in the"
                    + " headline and in every story it crosses (see The history)"),
            key("container_check_ms", Type.LONG, "-1", null, "how often the servers (child JVMs) reap empty"
                    + " container nodes, such as a lock's parent (ZooKeeper's `znode.container.checkIntervalMs`); -1"
                    + " keeps its minute", s -> s.cluster().containerCheckMillis()));

    private static final Map<String, Key> BY_NAME = byName();

    private static Map<String, Key> byName() {
        Map<String, Key> m = new LinkedHashMap<>();
        for (Key k : ALL) {
            if (m.put(k.name(), k) != null) {
                throw new IllegalStateException("key declared twice: " + k.name());
            }
        }
        return m;
    }

    /** The key named {@code name}, or null. */
    public static Key named(String name) {
        return BY_NAME.get(name);
    }

    /** Every key's default, as text, in declaration order. */
    public static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        ALL.forEach(k -> m.put(k.name(), k.defaultText()));
        return m;
    }

    /**
     * The value of the workload key {@code key} as {@code spec} holds it, for the parts that read keys by name (a lock
     * service's own keys, SSH options).
     *
     * @throws IllegalStateException for a name no key has
     */
    public static Object value(TestSpec spec, String key) {
        Key k = named(key);
        if (k == null || k.value() == null) {
            throw new IllegalStateException("asked for the key '" + key + "', which no part of the spec holds");
        }
        return k.value().apply(spec);
    }

    /** The spec as test.json has it: every key, in declaration order. */
    public static Map<String, Object> toMap(TestSpec spec) {
        Map<String, Object> m = new LinkedHashMap<>();
        ALL.forEach(k -> m.put(k.name(), k.value().apply(spec)));
        return m;
    }

    /** The run command's option for each key that has one. */
    public static Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>();
        ALL.stream().filter(k -> k.option() != null).forEach(k -> m.put(k.name(), k.option()));
        return m;
    }

    /** The manual's table of keys (docs/commands.md holds exactly this; KeysTest checks it). */
    public static String markdownTable() {
        StringBuilder b = new StringBuilder("| key | default | option | meaning |\n|---|---|---|---|\n");
        for (Key k : ALL) {
            b.append("| `").append(k.name()).append("` | ").append(k.shownDefault()).append(" | ")
                    .append(k.option() == null ? "" : "`" + k.option() + "`").append(" | ").append(k.help())
                    .append(" |\n");
        }
        return b.toString();
    }
}
