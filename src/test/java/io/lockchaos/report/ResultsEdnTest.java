package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import us.bpsm.edn.Keyword;
import us.bpsm.edn.parser.Parsers;

class ResultsEdnTest {
    private static Object parse(String edn) {
        return Parsers.newParser(Parsers.defaultConfiguration()).nextValue(Parsers.newParseable(edn));
    }

    @Test
    void namesThatWouldCollideOrAreNotIdentifiersStayStringsAndEveryStringIsValidEdn() {
        Map<String, Object> perKey = new LinkedHashMap<>();
        perKey.put("/lock/a_b", 1L);
        perKey.put("/lock/a-b", 2L);
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("overlap_ns", 5L);
        stats.put("a_b", 1L);
        stats.put("a-b", 2L); // would both be :a-b
        stats.put("per_key", perKey);
        stats.put("text", "tab\there, lone \uD800 surrogate, bell \u0007, quote \" and \\");
        stats.put("list", java.util.Arrays.asList(1L, null, "x"));
        stats.put("set", new java.util.TreeSet<>(List.of("b", "a")));
        CheckResult leaf = new CheckResult("mutual-exclusion", Verdict.UNKNOWN, List.of(), stats, "why \"not\"",
                List.of(), true);
        CheckResult top = new CheckResult("lock", Verdict.UNKNOWN, List.of(), Map.of(), null, List.of(leaf), true);
        String edn = ResultsEdn.of(top);
        @SuppressWarnings("unchecked")
        Map<Object, Object> r = (Map<Object, Object>) parse(edn);
        assertEquals(Keyword.newKeyword("unknown"), r.get(Keyword.newKeyword("valid?")), edn);
        @SuppressWarnings("unchecked")
        Map<Object, Object> me = (Map<Object, Object>) r.get(Keyword.newKeyword("mutual-exclusion"));
        @SuppressWarnings("unchecked")
        Map<Object, Object> s = (Map<Object, Object>) me.get(Keyword.newKeyword("stats"));
        assertEquals(7, s.size(), "no two keys became one: " + s);
        assertTrue(s.containsKey("a_b") && s.containsKey("a-b"), "colliding names stay strings: " + s);
        @SuppressWarnings("unchecked")
        Map<Object, Object> pk = (Map<Object, Object>) s.get("per_key");
        assertEquals(2, pk.size(), "lock paths are strings: " + pk);
        assertTrue(String.valueOf(s.get("text")).contains("\uD800"), "the surrogate is escaped and read back");
        assertEquals("why \"not\"", me.get(Keyword.newKeyword("error")));
        assertEquals("[a, b]", s.get("set"), "anything else is its text, quoted");
        assertEquals(5L, s.get("overlap_ns"), "a map with a collision writes every key as a string: " + s);
    }

    @Test
    void nonFiniteNumbersAreClojuresSymbolicValues() {
        // Clojure (and so Jepsen) reads ##NaN and ##Inf; edn-java 0.7 does not, so this is checked as text
        CheckResult leaf = new CheckResult("x", Verdict.VALID, List.of(), Map.of("nan", Double.NaN, "inf",
                Double.POSITIVE_INFINITY), null, List.of(), true);
        String edn = ResultsEdn.of(leaf);
        assertTrue(edn.contains(":nan ##NaN") && edn.contains(":inf ##Inf"), "plain names are keywords: " + edn);
    }
}
