package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.checker.linear.Expiry;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Models;
import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryFormatException;
import io.lockchaos.history.JsonlHistoryReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every history in checker/ gives exactly the verdict and anomaly kinds its manifest entry names, or its error. */
class KnownAnswerTest {
    static final Path DIR = Path.of("checker");

    static Stream<Arguments> cases() throws Exception {
        JsonNode m = new ObjectMapper().readTree(DIR.resolve("manifest.json").toFile());
        List<Arguments> out = new ArrayList<>();
        for (JsonNode c : m.get("cases")) {
            out.add(Arguments.of(c.get("file").asText(), c));
        }
        return out.stream();
    }

    @Test
    void theManifestHasAtLeastFortyCases() throws Exception {
        assertTrue(cases().count() >= 40);
    }

    /** The case's checkers: its model (read with its {@code expiry}, Knossos' {@code none} by default), else its recipe. */
    static CheckResult check(History h, JsonNode c) {
        return c.has("model")
                ? new LinearizabilityChecker(Models.parse(c.get("model").asText()), expiry(c)).check(h)
                : Checkers.forRecipe(io.lockchaos.client.LockRecipe.parse(c.get("recipe").asText()).promises()).check(h);
    }

    static Expiry expiry(JsonNode c) {
        return c.has("expiry") ? Expiry.parse(c.get("expiry").asText()) : Expiry.NONE;
    }

    static History read(Path f) throws Exception {
        return f.toString().endsWith(".edn") ? EdnHistory.read(f) : JsonlHistoryReader.read(f);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void knownAnswer(String file, JsonNode c) throws Exception {
        Path f = DIR.resolve(file);
        if (c.has("error")) {
            // assertThrows would let a StackOverflowError through as a crash; catch everything to name it
            HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> read(f));
            assertTrue(e.getMessage().contains(c.get("error").asText()), e.getMessage());
            assertTrue(e.getMessage().startsWith(f.toString() + ":"), e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
            return;
        }
        History h = read(f);
        CheckResult r = check(h, c);
        Set<String> kinds = new TreeSet<>();
        for (Anomaly a : r.allAnomalies()) {
            kinds.add(a.kind().wireName());
        }
        Set<String> expected = new TreeSet<>();
        c.get("anomalies").forEach(k -> expected.add(k.asText()));
        assertEquals(c.get("verdict").asText(), r.verdict().wireName(), () -> file + ": " + r);
        assertEquals(expected, kinds, () -> file + ": " + r);
        if (c.has("reason")) {
            assertTrue(!r.checked() && r.error() != null && r.error().contains(c.get("reason").asText()),
                    () -> file + ": expected nothing checked for '" + c.get("reason").asText() + "': " + r);
        }
        for (CheckResult child : r.children()) {
            String e = child.error();
            assertTrue(e == null || !e.startsWith("checker failed"), () -> file + ": " + child.checker() + ": " + e);
        }
    }
}
