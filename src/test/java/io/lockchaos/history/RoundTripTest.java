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

    /** Jepsen values of every EDN kind are written back as that kind: what a user exports reads as it was read. */
    @Test
    void ednValuesOfEveryKindSurviveExport() throws Exception {
        String value = "[:plain :ns/name sym ns/sym {:k 1, \"s\" :v} #{3} (1 2) \"text\" nil 2.5 true]";
        String line = "{:index 0, :time 5, :type :invoke, :process 0, :f :write, :value " + value + "}";
        Op read = EdnHistory.read("h.edn", line + "\n").get(0);
        String written = EdnHistory.toEdn(read);
        // the printer's compact form; a list comes back as a vector, which Clojure's = takes as equal
        org.junit.jupiter.api.Assertions.assertEquals("{:index 0 :time 5 :type :invoke :process 0 :f :write :value"
                + "[:plain :ns/name sym ns/sym{:k 1\"s\":v}#{3}[1 2]\"text\"nil 2.5 true]}", written);
        org.junit.jupiter.api.Assertions.assertEquals(read, EdnHistory.read("again.edn", written + "\n").get(0));
    }
}
