package io.lockchaos.history;

import io.lockchaos.checker.Recipe;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import io.lockchaos.sim.SmallHistories;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every generated history survives JSONL and Jepsen EDN export and import unchanged, op for op. */
class RoundTripTest {
    static final List<Recipe> RECIPES = List.of(Recipe.MUTEX, Recipe.READ_WRITE, Recipe.MULTI, Recipe.semaphore(2));

    @Test
    void jsonlAndEdnRoundTrips() {
        Property.forAll("round trip", SmallHistories.cases(RECIPES, 10), Shrinker.<SmallHistories.Case>none())
                .casesFromSystem(2000, 0.5).seed(4242L)
                .check(c -> {
                    History h = c.history();
                    StringBuilder jsonl = new StringBuilder();
                    StringBuilder edn = new StringBuilder();
                    for (Op op : h.ops()) {
                        jsonl.append(HistoryWriter.toJsonLine(op)).append('\n');
                        edn.append(EdnHistory.toEdn(op)).append('\n');
                    }
                    History fromJsonl;
                    History fromEdn;
                    try {
                        fromJsonl = JsonlHistoryReader.read("h.jsonl", new StringReader(jsonl.toString()));
                        fromEdn = EdnHistory.read("h.edn", edn.toString());
                    } catch (HistoryFormatException | java.io.IOException e) {
                        throw new AssertionError(e.getMessage(), e);
                    }
                    for (int i = 0; i < h.size(); i++) {
                        Op want = h.get(i);
                        Op a = fromJsonl.get(i);
                        Op b = fromEdn.get(i);
                        if (!want.equals(a) || !want.equals(b)) {
                            throw new AssertionError("op " + i + ":\n  " + want + "\n  " + a + "\n  " + b);
                        }
                    }
                    return fromJsonl.size() == h.size() && fromEdn.size() == h.size();
                });
    }
}
