package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every form the streaming reader knows, each read to the plain value an op would carry, and each refusal. */
class EdnReaderFormsTest {
    private static Object read(String text) throws Exception {
        return EdnHistory.plain(new EdnReader("f.edn", new StringReader(text)).value(0));
    }

    private static String refusal(String text) {
        return assertThrows(HistoryFormatException.class, () -> read(text)).getMessage();
    }

    @Test
    void scalars() throws Exception {
        assertEquals(null, read("nil"));
        assertEquals(true, read("true"));
        assertEquals(false, read("false"));
        assertEquals(42L, read("42"));
        assertEquals(-7L, read("-7"));
        assertEquals(3L, read("+3"));
        assertEquals(9223372036854775807L, read("9223372036854775807"));
        assertEquals(new BigInteger("92233720368547758070"), read("92233720368547758070"));
        assertEquals(new BigInteger("12345678901234567890"), read("12345678901234567890N"));
        assertEquals(7L, read("7N"));
        assertEquals(1.5, read("1.5"));
        assertEquals(-2250.0, read("-2.25e3"));
        assertEquals(0.01, read("1E-2"));
        assertEquals(2.5, read("2.5M"));
        assertEquals(0.25, read("1/4"));
        assertEquals(Double.NEGATIVE_INFINITY, read("##-Inf"));
        assertEquals(new EdnValues.Keyword("ns/name"), read(":ns/name"));
        assertEquals(new EdnValues.Keyword("name"), read(":name"));
        assertEquals(new EdnValues.Symbol("/"), read("/"));
        assertEquals(new EdnValues.Symbol("ns/sym"), read("ns/sym"));
        assertEquals(new EdnValues.Symbol("+"), read("+"));
        assertEquals(new EdnValues.Symbol("-x"), read("-x"));
        assertTrue(read("2.5M") instanceof Double, "plain turns decimals into doubles");
        assertEquals(new BigDecimal("2.5"), new EdnReader("f", new StringReader("2.5M")).value(0));
    }

    @Test
    void stringsAndCharacters() throws Exception {
        assertEquals("a\"b\\c\nd\te\rf\bg\fh\u00e9", read("\"a\\\"b\\\\c\\nd\\te\\rf\\bg\\fh\\u00e9\""));
        assertEquals("", read("\"\""));
        assertEquals("x".charAt(0), read("\\x"));
        assertEquals("\n".charAt(0), read("\\newline"));
        assertEquals(" ".charAt(0), read("\\space"));
        assertEquals("\t".charAt(0), read("\\tab"));
        assertEquals("\r".charAt(0), read("\\return"));
        assertEquals("\f".charAt(0), read("\\formfeed"));
        assertEquals("\b".charAt(0), read("\\backspace"));
        assertEquals("A".charAt(0), read("\\u0041"));
        assertEquals("(".charAt(0), read("\\("));
        assertEquals("u".charAt(0), read("\\u"));
    }

    @Test
    void collectionsTagsAndDiscards() throws Exception {
        assertEquals(List.of(1L, 2L), read("[1 2]"));
        assertEquals(List.of(1L, 2L), read("(1,2)"));
        assertEquals(List.of(), read("[]"));
        assertEquals(java.util.Set.of(1L), read("#{1}"));
        assertEquals(List.of(1L, 3L), read("[1 #_2 3]"));
        assertEquals(List.of(1L), read("[1 #_ [2 3]]"));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", List.of(new EdnValues.Keyword("c")));
        assertEquals(m, read("{:a 1, ; a comment\n :b [:c] #_:dropped}"));
        assertEquals(m, read("#jepsen.history.Op{:a 1 :b [:c]}"));
        assertEquals("2026-12-02T00:00:00Z", read("#inst \"2026-12-02T00:00:00Z\""));
        assertEquals(Arrays.asList(1L, null), read("[1 nil]"));
    }

    @Test
    void refusalsNameTheFileTheLineAndTheForm() {
        assertEquals("f.edn:1: line: malformed EDN (unexpected ']')", refusal("]"));
        assertEquals("f.edn:1: line: malformed EDN (unexpected ')')", refusal(")"));
        assertEquals("f.edn:1: line: malformed EDN (unexpected '}')", refusal("}"));
        assertEquals("f.edn:1: line: malformed EDN (a map needs an even number of forms, got 3)", refusal("{:a 1 :b}"));
        assertEquals("f.edn:1: line: malformed EDN (bad escape '\\q' in a string)", refusal("\"\\q\" "));
        assertEquals("f.edn:1: line: malformed EDN (bad \\u escape)", refusal("\"\\u00zz\" "));
        assertEquals("f.edn:1: line: malformed EDN (unknown character \\bogus)", refusal("\\bogus "));
        assertEquals("f.edn:1: line: malformed EDN (unknown symbolic value ##Bad)", refusal("##Bad "));
        assertEquals("f.edn:1: line: malformed EDN (bad tag '#1')", refusal("#1 x "));
        assertEquals("f.edn:1: line: malformed EDN (bad keyword ':')", refusal(": "));
        assertEquals("f.edn:1: line: malformed EDN (bad keyword ':a/')", refusal(":a/ "));
        assertEquals("f.edn:1: line: malformed EDN (bad number '1.2.3')", refusal("1.2.3 "));
        assertEquals("f.edn:1: line: malformed EDN (bad number '1/0')", refusal("1/0 "));
        assertEquals("f.edn:2: line: malformed EDN (unexpected ')')", refusal("[1\n)]"), "the line counts");
    }

    @Test
    void theEndOfInputInsideAValueIsReportedAsSuch() {
        for (String cut : new String[] {"[1 2", "{:a", "\"abc", "\"a\\", "\"\\u00", "\\", "#", "(", "#{1"}) {
            assertThrows(EdnReader.EndOfInput.class, () -> read(cut), cut);
        }
    }

    @Test
    void tokensAcrossTheBufferBoundaryAndLinesAreCounted() throws Exception {
        // 65,536 chars fill the buffer: a keyword straddling the boundary must read whole
        String pad = " ".repeat((1 << 16) - 3);
        assertEquals(new EdnValues.Keyword("straddle"), read(pad + ":straddle"));
        EdnReader r = new EdnReader("f", new StringReader("\n\n[:a\n:b]\n"));
        r.value(0);
        assertEquals(4, r.line());
    }

    @Test
    void manyDistinctKeywordsOutgrowTheCacheAndStillReadTheSame() throws Exception {
        StringBuilder text = new StringBuilder("[");
        List<Object> expected = new java.util.ArrayList<>();
        for (int round = 0; round < 2; round++) { // the second round finds each in the grown cache
            for (int i = 0; i < 600; i++) {
                text.append(" :k").append(i).append(" :ns").append(i % 7).append("/n").append(i);
                expected.add(new EdnValues.Keyword("k" + i));
                expected.add(new EdnValues.Keyword("ns" + (i % 7) + "/n" + i));
            }
        }
        assertEquals(expected, read(text.append("]").toString()));
    }
}
