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

    /**
     * A runner's stall is one unpaired op, even inside an open nemesis op: it survives both formats, Jepsen's lock
     * shape leaves it out (it is no fault of Jepsen's), and only the runner may record one.
     */
    @Test
    void aStallOfTheRunnerIsOneUnpairedOpInEveryFormat() throws Exception {
        java.util.Map<String, Object> stall = new java.util.LinkedHashMap<>();
        stall.put("start_ns", 2_000L);
        stall.put("end_ns", 7_000L);
        stall.put("duration_ns", 5_000L);
        History h = History.ofValid(List.of(
                Op.of(OpType.INVOKE, 1_000, Op.NEMESIS, Fn.START, null, java.util.Map.of("fault", "pause")),
                Op.of(OpType.OK, 7_000, Op.NEMESIS, Fn.STALL, null, stall),
                Op.of(OpType.INFO, 7_001, Op.NEMESIS, Fn.START, null, java.util.Map.of("fault", "pause")),
                Op.of(OpType.INVOKE, 7_002, 0, Fn.ACQUIRE, "k", null),
                Op.of(OpType.OK, 7_003, Op.NEMESIS, Fn.STALL, null, stall)));
        StringBuilder jsonl = new StringBuilder();
        StringBuilder edn = new StringBuilder();
        for (Op op : h.ops()) {
            jsonl.append(HistoryWriter.toJsonLine(op)).append('\n');
            edn.append(EdnHistory.toEdn(op)).append('\n');
        }
        org.junit.jupiter.api.Assertions.assertEquals(h.ops(), JsonlHistoryReader.read("h.jsonl",
                new StringReader(jsonl.toString())).ops());
        org.junit.jupiter.api.Assertions.assertEquals(h.ops(), EdnHistory.read("h.edn", edn.toString()).ops());
        // as Jepsen itself would write it: :info, without lockchaos' outcome
        History jepsen = EdnHistory.read("j.edn", "{:index 0 :time 5 :type :info :process :nemesis :f :stall"
                + " :value {:start_ns 1 :end_ns 5}}\n");
        org.junit.jupiter.api.Assertions.assertEquals(OpType.OK, jepsen.get(0).type());
        org.junit.jupiter.api.Assertions.assertNull(EdnHistory.toJepsenLock(h.get(1)));
        HistoryFormatException e = org.junit.jupiter.api.Assertions.assertThrows(HistoryFormatException.class,
                () -> History.of("c.jsonl", List.of(Op.of(OpType.OK, 0, 3, Fn.STALL, null, stall))));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("process: a stall is the runner's and"
                + " must be \"nemesis\", not 3"), e.getMessage());
    }
}
