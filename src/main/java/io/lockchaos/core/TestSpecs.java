package io.lockchaos.core;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** Loads and validates test specs: unknown keys and impossible values are rejected with one line naming the key. */
public final class TestSpecs {
    static final Set<String> RECIPES = Set.of("mutex", "reentrant-mutex", "rw", "multi", "naive-exclusive",
            "naive-rw", "naive-herd", "naive-queue");
    private static final Set<String> INT_KEYS = Set.of("nodes", "clients", "keys", "tick_ms", "reentry_depth",
            "try_acquire_pct", "read_pct", "rate");
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
        Path file = runDir.resolve("test.json");
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
        return new TestSpec(m.get("name"), m.get("recipe"), (int) number(source, m, "nodes"),
                (int) number(source, m, "clients"), (int) number(source, m, "keys"), number(source, m, "time_s"),
                number(source, m, "hold_ms"), number(source, m, "acquire_timeout_ms"),
                number(source, m, "session_timeout_ms"), (int) number(source, m, "tick_ms"),
                number(source, m, "seed"), m.get("client_mode"), (int) number(source, m, "reentry_depth"),
                number(source, m, "warmup_s"), number(source, m, "hold_max_ms"),
                (int) number(source, m, "try_acquire_pct"), (int) number(source, m, "read_pct"),
                (int) number(source, m, "rate"), m.get("nemesis"), number(source, m, "quiesce_ms"),
                m.get("proxy"), m.get("expect"), m.get("cluster"));
    }

    private static long number(String source, Map<String, String> m, String key) throws SpecException {
        String v = m.get(key);
        try {
            long n = Long.parseLong(v);
            if (INT_KEYS.contains(key) && (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE)) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new SpecException(source + ": " + key + ": expected a whole number, got '" + v + "'");
        }
    }

    /**
     * Checks that the spec can run.
     *
     * @throws SpecException naming the key whose value is impossible
     */
    public static TestSpec validate(String source, TestSpec s) throws SpecException {
        if (!RECIPES.contains(s.recipe()) && !s.recipe().matches("semaphore:[1-9][0-9]*")) {
            throw new SpecException(source + ": recipe: unknown recipe '" + s.recipe() + "' (expected mutex,"
                    + " reentrant-mutex, semaphore:N, rw, multi, naive-exclusive, naive-rw, naive-herd or naive-queue)");
        }
        if (io.lockchaos.client.ClientMode.parse(s.clientMode()) == null) {
            throw new SpecException(source + ": client_mode: expected ignore, stop-on-suspended or stop-on-lost, got '"
                    + s.clientMode() + "'");
        }
        if (s.reentryDepth() < 1 || s.reentryDepth() > 100) {
            throw new SpecException(source + ": reentry_depth: expected 1 to 100, got " + s.reentryDepth());
        }
        if (s.nodes() != 1 && s.nodes() != 3 && s.nodes() != 5) {
            throw new SpecException(source + ": nodes: expected 1, 3 or 5, got " + s.nodes());
        }
        if (s.clients() < 1 || s.clients() > 2000) {
            throw new SpecException(source + ": clients: expected 1 to 2000, got " + s.clients());
        }
        if (s.keys() < 1 || s.keys() > s.clients() && !s.recipe().equals("multi")) {
            throw new SpecException(source + ": keys: expected 1 to clients (" + s.clients() + "), got " + s.keys());
        }
        if (s.recipe().equals("multi") && s.keys() < 2) {
            throw new SpecException(source + ": keys: a multi-lock needs at least 2 keys, got " + s.keys());
        }
        if (s.timeSeconds() < 1) {
            throw new SpecException(source + ": time_s: must be at least 1, got " + s.timeSeconds());
        }
        if (s.holdMillis() < 0 || s.acquireTimeoutMillis() < 1) {
            throw new SpecException(source + ": hold_ms must be >= 0 and acquire_timeout_ms >= 1");
        }
        if (s.warmupSeconds() < 0 || s.warmupSeconds() > 3600) {
            throw new SpecException(source + ": warmup_s: expected 0 to 3600, got " + s.warmupSeconds());
        }
        if (s.holdMaxMillis() != 0 && s.holdMaxMillis() < s.holdMillis()) {
            throw new SpecException(source + ": hold_max_ms: must be 0 or at least hold_ms (" + s.holdMillis()
                    + "), got " + s.holdMaxMillis());
        }
        if (s.tryAcquirePct() < 0 || s.tryAcquirePct() > 100) {
            throw new SpecException(source + ": try_acquire_pct: expected 0 to 100, got " + s.tryAcquirePct());
        }
        if (s.readPct() < 0 || s.readPct() > 100) {
            throw new SpecException(source + ": read_pct: expected 0 to 100, got " + s.readPct());
        }
        // pauses are whole milliseconds: above 500/s the mean pause of a stagger would be off by more than 25%
        if (s.rate() < 0 || s.rate() > 500) {
            throw new SpecException(source + ": rate: expected 0 (unlimited) to 500 cycles/s per client, got "
                    + s.rate());
        }
        if (s.quiesceMillis() < -1 || s.quiesceMillis() > 600_000) {
            throw new SpecException(source + ": quiesce_ms: expected -1 (auto) to 600000, got " + s.quiesceMillis());
        }
        if (!s.proxy().equals("embedded") && !s.proxy().matches("http://[^/:]+:[0-9]+/?")) {
            throw new SpecException(source + ": proxy: expected embedded or http://host:port, got '" + s.proxy()
                    + "'");
        }
        if (!Set.of("local", "container").contains(s.cluster())) {
            throw new SpecException(source + ": cluster: expected local or container, got '" + s.cluster() + "'");
        }
        if (!Set.of("", "valid", "invalid", "unknown").contains(s.expect())) {
            throw new SpecException(source + ": expect: expected valid, invalid or unknown, got '" + s.expect() + "'");
        }
        try {
            io.lockchaos.nemesis.Schedule schedule = s.schedule();
            if (schedule.partitionsServers() && s.nodes() == 1) {
                throw new SpecException(source + ": nemesis: partitions need 3 or 5 nodes, got 1");
            }
            if (schedule.hasRing() && s.nodes() < 5) {
                throw new SpecException(source + ": nemesis: a ring partition needs 5 nodes (with " + s.nodes()
                        + " every server is its neighbours' neighbour and nothing is cut)");
            }
        } catch (IllegalArgumentException e) {
            throw new SpecException(source + ": nemesis: " + e.getMessage());
        }
        if (s.tickMillis() < 10) {
            throw new SpecException(source + ": tick_ms: must be at least 10, got " + s.tickMillis());
        }
        long min = 2L * s.tickMillis();
        long max = 20L * s.tickMillis();
        if (s.sessionTimeoutMillis() < min || s.sessionTimeoutMillis() > max) {
            throw new SpecException(source + ": session_timeout_ms: the server allows " + min + " to " + max
                    + " ms with tick_ms " + s.tickMillis() + ", got " + s.sessionTimeoutMillis());
        }
        return s;
    }
}
