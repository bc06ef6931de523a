package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lockchaos.history.History;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The complete result of every known-answer case (stats, each anomaly's window, ops, explanation and details) as it
 * was reviewed, in {@code checker/expected/}: what a user reads must not change unnoticed. After an intended change,
 * regenerate with {@code -Dlockchaos.golden.update=true} and review the diff.
 */
class GoldenResultsTest {
    static final Path DIR = KnownAnswerTest.DIR.resolve("expected");
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    static Map<String, Object> plain(CheckResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("checker", r.checker());
        m.put("verdict", r.verdict().wireName());
        m.put("checked", r.checked());
        m.put("error", r.error());
        m.put("stats", new TreeMap<>(r.stats()));
        List<Object> anomalies = new ArrayList<>();
        for (Anomaly a : r.anomalies()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("kind", a.kind().wireName());
            x.put("severity", a.severity().name());
            x.put("key", a.key());
            x.put("ops", a.ops());
            x.put("start", a.start());
            x.put("end", a.end());
            x.put("explanation", a.explanation());
            x.put("details", new TreeMap<>(a.details()));
            anomalies.add(x);
        }
        m.put("anomalies", anomalies);
        List<Object> children = new ArrayList<>();
        r.children().forEach(c -> children.add(plain(c)));
        m.put("children", children);
        return m;
    }

    static String name(String file, JsonNode c) {
        String how = c.has("model") ? "model-" + c.get("model").asText() : "recipe-" + c.get("recipe").asText();
        if (c.has("expiry")) {
            how += ".expiry-" + c.get("expiry").asText();
        }
        return file + "." + how.replace(':', '-') + ".json";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.lockchaos.checker.KnownAnswerTest#cases")
    void resultIsTheReviewedOne(String file, JsonNode c) throws Exception {
        if (c.has("error")) {
            return; // refused input has no result; KnownAnswerTest checks its message
        }
        History h = KnownAnswerTest.read(KnownAnswerTest.DIR.resolve(file));
        CheckResult r = KnownAnswerTest.check(h, c);
        String actual = JSON.writeValueAsString(plain(r)) + "\n";
        Path expected = DIR.resolve(name(file, c));
        if (Boolean.getBoolean("lockchaos.golden.update") || !Files.exists(expected)) {
            Files.createDirectories(DIR);
            Files.writeString(expected, actual);
        }
        assertEquals(Files.readString(expected), actual, expected + " differs");
    }
}
