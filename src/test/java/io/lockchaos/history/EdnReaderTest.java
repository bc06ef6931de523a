package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The EDN reader's corners: nesting limits that only count real brackets, value conversion, Jepsen round trips. */
class EdnReaderTest {
    private static String op(String value) {
        return "{:type :invoke, :f :write, :process 0, :time 1, :value " + value + "}\n";
    }

    @Test
    void onlyRealBracketsCountTowardTheNestingLimit() throws Exception {
        String deep = "[".repeat(EdnHistory.MAX_DEPTH - 1) + "]".repeat(EdnHistory.MAX_DEPTH - 1);
        assertEquals(1, EdnHistory.read("ok.edn", op(deep)).size(), "200 levels: the op map and 199 vectors");
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> EdnHistory.read("deep.edn", op("[" + deep + "]")));
        assertEquals("deep.edn:1: line: nested more than 200 levels deep", e.getMessage());
        // brackets inside strings, character literals and comments are no nesting; closed ones no longer count
        String quoted = "\"" + "[(\\\"{".repeat(300) + "\"";
        assertEquals("[(\"{".repeat(300), EdnHistory.read("s.edn", op(quoted)).get(0).value());
        assertEquals(List.of('[', '(', '{'), EdnHistory.read("c.edn", op("[\\[ \\( \\{]")).get(0).value());
        String siblings = "[" + "[[]]".repeat(500) + "]";
        assertEquals(500, ((List<?>) EdnHistory.read("b.edn", op(siblings)).get(0).value()).size());
        String commented = "; " + "[".repeat(500) + "\n" + op("1");
        assertEquals(1L, EdnHistory.read("k.edn", commented).get(0).value());
    }

    @Test
    void theLineOfADeepValueInAVectorFileIsNamed() {
        String text = "[" + op("1") + op("[".repeat(300) + "]".repeat(300)) + "]";
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> EdnHistory.read("v.edn", text));
        assertEquals("v.edn:2: line: nested more than 200 levels deep", e.getMessage());
    }

    @Test
    void valuesKeepWhatClojureTellsApart() throws Exception {
        Op o = EdnHistory.read("v.edn", op("{:k :ns/name, :s sym, :c \\x, :big 123456789012345678901234567890N,"
                + " :small 7N, :d 1.5, :m 2.5M, :set #{1}, :list (1 2), :t #inst \"2026-12-02T00:00:00Z\","
                + " :b true, :n nil, :str {\"a\" 1}}")).get(0);
        Map<?, ?> v = (Map<?, ?>) o.value();
        assertEquals(new EdnValues.Keyword("ns/name"), v.get("k"));
        assertEquals(new EdnValues.Symbol("sym"), v.get("s"));
        assertEquals('x', v.get("c"));
        assertEquals(new BigInteger("123456789012345678901234567890"), v.get("big"));
        assertEquals(7L, v.get("small"));
        assertEquals(1.5, v.get("d"));
        assertEquals(2.5, v.get("m"));
        assertEquals(java.util.Set.of(1L), v.get("set"));
        assertEquals(List.of(1L, 2L), v.get("list"));
        assertTrue(String.valueOf(v.get("t")).startsWith("20") || String.valueOf(v.get("t")).contains("2026"),
                String.valueOf(v.get("t")));
        assertEquals(true, v.get("b"));
        assertTrue(v.containsKey("n") && v.get("n") == null);
        assertEquals(new EdnValues.KeyedMap(Map.of("a", 1L)), v.get("str"));
        Op mixed = EdnHistory.read("w.edn", op("{:a 1, 3 \"three\"}")).get(0);
        assertEquals(new EdnValues.KeyedMap(Map.of(new EdnValues.Keyword("a"), 1L, 3L, "three")), mixed.value(),
                "a map with any key that is not a keyword keeps every key as it is");
        assertEquals(EdnHistory.toEdn(mixed), EdnHistory.toEdn(EdnHistory.read("x.edn", EdnHistory.toEdn(mixed)
                + "\n").get(0)), "and is written back as it was");
        // counterexamples and reports print such a map in EDN's own spelling, entries in the file's order
        assertEquals("{:a 1, 3 \"three\"}", mixed.value().toString());
        assertEquals("{}", new EdnValues.KeyedMap(Map.of()).toString());
    }

    @Test
    void aJepsenHistoryRoundTripsThroughExport() throws Exception {
        History h = EdnHistory.read(java.nio.file.Path.of("checker/d10-jepsen-time-backwards.edn"));
        StringBuilder b = new StringBuilder();
        for (Op op : h.ops()) {
            b.append(EdnHistory.toEdn(op)).append('\n');
        }
        assertTrue(b.toString().contains(":f :start-partition"), "an unknown nemesis f is written under its own name");
        assertEquals(h.ops(), EdnHistory.read("again.edn", b.toString()).ops());
        assertEquals(1, h.warnings().size(), "time goes back: said once: " + h.warnings());
    }

    @Test
    void processNumbersPastJavasIntRangeAreRenumberedAndSaid() throws Exception {
        // Jepsen numbers a crashed process's successor anew: long tests pass 2^31-1
        History h = EdnHistory.read("p.edn", "{:type :invoke, :f :acquire, :process 4294967296, :time 1}\n"
                + "{:type :ok, :f :acquire, :process 4294967296, :time 2}\n"
                + "{:type :invoke, :f :release, :process -1, :time 3}\n"
                + "{:type :invoke, :f :release, :process 7, :time 4}\n");
        assertEquals(List.of(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE - 1, 7),
                h.ops().stream().map(Op::process).toList());
        assertEquals(List.of("p.edn:1: process 4294967296 is outside 0..2147483647; shown as process 2147483647",
                "p.edn:3: process -1 is outside 0..2147483647; shown as process 2147483646"), h.warnings());
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> EdnHistory.read("q.edn",
                "{:type :invoke, :f :acquire, :process 4294967296}\n{:type :invoke, :f :acquire, :process 2147483647}\n"));
        assertEquals("q.edn:2: process: 2147483647 is taken by process 4294967296, shown so", e.getMessage());
    }

    @Test
    void negativeAndMissingTimesAreAcceptedAndSaid() throws Exception {
        History h = EdnHistory.read("t.edn", "{:type :invoke, :f :acquire, :process 0, :time -50}\n"
                + "{:type :ok, :f :acquire, :process 0}\n"
                + "{:type :invoke, :f :release, :process 0, :time 20}\n"
                + "{:type :ok, :f :release, :process 0}\n");
        assertEquals(List.of(-50L, -50L, 20L, 20L), h.ops().stream().map(Op::time).toList());
        assertEquals(List.of("t.edn:2: time: missing on 2 of 4 ops; ordering by position, durations that start or end"
                + " at those ops are unknown (each is given the time of the op before it)"), h.warnings());
        History untimed = EdnHistory.read("u.edn", "{:type :invoke, :f :acquire, :process 0}\n"
                + "{:type :ok, :f :acquire, :process 0}\n");
        assertEquals(List.of(0L, 1L), untimed.ops().stream().map(Op::time).toList(), "no times: by position");
        assertEquals(List.of(), untimed.warnings());
    }

    @Test
    void typesAndFunctionsMissingAreOneLineErrors() {
        assertEquals("t.edn:1: type: missing", assertThrows(HistoryFormatException.class,
                () -> EdnHistory.read("t.edn", "{:f :acquire, :process 0}\n")).getMessage());
        assertEquals("f.edn:1: f: missing", assertThrows(HistoryFormatException.class,
                () -> EdnHistory.read("f.edn", "{:type :invoke, :process 0}\n")).getMessage());
    }

    @Test
    void discardsAndTagsNestLikeContainersSoNoLineOverflowsTheStack() {
        String discards = "#_".repeat(5000) + "1 " + op("1");
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> EdnHistory.read("d.edn", discards));
        assertEquals("d.edn:1: line: nested more than 200 levels deep", e.getMessage());
        String tags = "{:type :invoke, :f :write, :process 0, :time 1, :value " + "#a ".repeat(5000) + "1}\n";
        e = assertThrows(HistoryFormatException.class, () -> EdnHistory.read("t.edn", tags));
        assertEquals("t.edn:1: line: nested more than 200 levels deep", e.getMessage());
    }

    @Test
    void aLastLineCutInsideATokenIsDroppedLikeAnyCutLine() throws Exception {
        String first = "{:type :invoke, :f :write, :process 0, :time 1, :value 1}\n";
        for (String cut : new String[] {"{:type :ok, :f :write, :process 0, :time 2, :value ##In",
            "{:type :ok, :f :write, :process 0, :time 2, :", "{:type :ok, :f :write, :process 0, :time 2, :ns/",
            "{:type :ok, :f :write, :process 0, :time 2, :value \\newl"}) {
            History h = EdnHistory.read("c.edn", first + cut);
            assertEquals(1, h.size(), cut);
            assertEquals(List.of("c.edn:2: truncated last line dropped"), h.warnings(), cut);
        }
        // the same bad token with a line after it is malformed
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> EdnHistory.read("m.edn", "{:type :ok, :value ##In}\n" + first));
        assertTrue(e.getMessage().startsWith("m.edn:1: line: malformed EDN (unknown symbolic value ##In"),
                e.getMessage());
    }

    @Test
    void discardsBesideTheOpOnItsLineAreAllowedASecondValueIsNot() throws Exception {
        assertEquals(1, EdnHistory.read("a.edn", "#_{:old 1} " + op("1")).size());
        assertEquals(1, EdnHistory.read("b.edn", op("1").trim() + " #_x\n").size());
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> EdnHistory.read("c.edn", op("1").trim() + " " + op("2")));
        assertEquals("c.edn:1: line: more than one value on the line", e.getMessage());
    }

    @Test
    void nilOnALineIsAValueThatIsNoOpNotTheEndOfTheHistory() {
        HistoryFormatException e = assertThrows(HistoryFormatException.class,
                () -> EdnHistory.read("n.edn", op("1") + "nil\n" + op("2")));
        assertEquals("n.edn:2: line: expected an op map", e.getMessage());
    }
}
