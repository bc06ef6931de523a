package io.lockchaos.scenario;

import io.lockchaos.client.ClientMode;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.core.Preflight;
import io.lockchaos.core.Runner;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.store.Store;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A test built in code, from a workload file or from a stored run, that runs on the embedded ensemble and returns
 * what it found. Every setter takes the same values as the workload file's key of the same meaning; {@link #run}
 * validates them all with the workload file's one-line messages.
 * <pre>{@code
 * ScenarioResult r = Scenario.builder()
 *         .recipe("reentrant-mutex").clients(3).time(Duration.ofSeconds(8))
 *         .hold(Duration.ofSeconds(5)).sessionTimeout(Duration.ofSeconds(2)).tickMillis(100)
 *         .clientMode("ignore").nemesis("at 500ms isolate holder for 5s").seed(1)
 *         .run();
 * assertTrue(r.violations().contains(AnomalyKind.DOUBLE_HOLDER));
 * }</pre>
 */
public final class Scenario {
    private final TestSpec base;
    private final Map<String, String> keys = new LinkedHashMap<>();
    private Path store = Path.of("histories");
    private PrintStream console;

    private Scenario(TestSpec base) {
        this.base = base;
    }

    /** A scenario over the defaults (the same as {@code run} with no options). */
    public static Scenario builder() {
        return new Scenario(TestSpec.DEFAULTS);
    }

    /** A scenario over a workload file. */
    public static Scenario fromWorkload(Path file) throws SpecException {
        return new Scenario(TestSpecs.load(file));
    }

    /** A scenario over a spec. */
    public static Scenario of(TestSpec spec) {
        return new Scenario(spec);
    }

    /** The stored run's exact test again: its parameters, seed and expanded fault schedule. */
    public static Scenario replay(Path runDir) throws SpecException {
        return new Scenario(TestSpecs.fromStoredRun(runDir));
    }

    /** Sets any workload key by name, as a workload file would (for example {@code "hold_max_ms", "500"}). */
    public Scenario set(String key, Object value) {
        keys.put(key, String.valueOf(value));
        return this;
    }

    public Scenario name(String n) {
        return set("name", n);
    }

    /** A recipe by its workload name ({@code reentrant-mutex}, {@code semaphore:3}, ...). */
    public Scenario recipe(String r) {
        return set("recipe", r);
    }

    public Scenario recipe(LockRecipe r) {
        return set("recipe", r.wireName());
    }

    /**
     * Your own lock instead of a recipe: the {@link io.lockchaos.api.LockFactory} class {@code factoryClass}, loaded in
     * client agents from {@code classpath} (jars and folders; {@code dir/*} takes every jar in {@code dir}).
     */
    public Scenario lock(String factoryClass, java.util.List<Path> classpath) {
        keys.put("recipe", LockRecipe.Kind.USER.wireName());
        keys.put("lock_jar", String.join(java.io.File.pathSeparator, classpath.stream().map(Path::toString).toList()));
        return set("lock_class", factoryClass);
    }

    public Scenario nodes(int n) {
        return set("nodes", n);
    }

    public Scenario clients(int n) {
        return set("clients", n);
    }

    public Scenario keys(int n) {
        return set("keys", n);
    }

    /** The main phase, in whole seconds. */
    public Scenario time(Duration d) {
        return set("time_s", Math.max(1, d.toSeconds()));
    }

    public Scenario hold(Duration d) {
        return set("hold_ms", d.toMillis());
    }

    public Scenario acquireTimeout(Duration d) {
        return set("acquire_timeout_ms", d.toMillis());
    }

    public Scenario sessionTimeout(Duration d) {
        return set("session_timeout_ms", d.toMillis());
    }

    public Scenario tickMillis(int ms) {
        return set("tick_ms", ms);
    }

    /** {@code ignore}, {@code stop-on-suspended} or {@code stop-on-lost}. */
    public Scenario clientMode(String mode) {
        return set("client_mode", mode);
    }

    public Scenario clientMode(ClientMode mode) {
        return set("client_mode", mode.wireName());
    }

    /** The fault schedule, in the timeline syntax of {@link io.lockchaos.fault.Schedule}. */
    public Scenario nemesis(String schedule) {
        return set("nemesis", schedule);
    }

    public Scenario seed(long s) {
        return set("seed", s);
    }

    /** Where runs are stored (default histories/). */
    public Scenario store(Path root) {
        this.store = root;
        return this;
    }

    /** Shows progress and live detections while running (default: silent). */
    public Scenario console(PrintStream out) {
        this.console = out;
        return this;
    }

    /**
     * The test this scenario describes.
     *
     * @throws SpecException naming the key whose value is unknown or impossible
     */
    public TestSpec spec() throws SpecException {
        return TestSpecs.validate("scenario", TestSpecs.with("scenario", base, keys));
    }

    /**
     * Runs it once, stored under {@code store/<name>/<time>/}.
     *
     * @throws SpecException for an impossible scenario, before anything starts
     * @throws IllegalArgumentException when the machine lacks what it needs (redis-server, Docker, namespaces), in
     *     one line, before anything starts
     */
    public ScenarioResult run() throws Exception {
        return run(spec(), store, console);
    }

    static ScenarioResult run(TestSpec spec, Path store, PrintStream console) throws Exception {
        Preflight.check(spec, null); // what the machine lacks is said before a run folder exists
        Path dir = new Store(store).newRun(spec.name());
        Runner.writeTestJson(dir, spec);
        Runner runner = new Runner(spec, dir);
        if (console != null) {
            runner.console(console);
        }
        return ScenarioResult.of(spec, runner.run());
    }

    Path store() {
        return store;
    }

    PrintStream console() {
        return console;
    }
}
