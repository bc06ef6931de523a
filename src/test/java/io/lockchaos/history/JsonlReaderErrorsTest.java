package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** Each kind of bad JSONL field gets its own one-line message naming the line and the field. */
class JsonlReaderErrorsTest {
    private static String refused(String text) {
        return assertThrows(HistoryFormatException.class,
                () -> JsonlHistoryReader.read("h.jsonl", new StringReader(text))).getMessage();
    }

    private static History read(String text) throws Exception {
        return JsonlHistoryReader.read("h.jsonl", new StringReader(text));
    }

    @Test
    void theWidestProcessNumberAndANullKeyAreRead() throws Exception {
        History h = read("{\"type\":\"invoke\",\"process\":2147483647,\"f\":\"acquire\",\"key\":null}\n");
        assertEquals(Integer.MAX_VALUE, h.get(0).process());
        assertEquals(null, h.get(0).key(), "a JSON null key is no key, not the string null");
    }

    @Test
    void anIndexThatRepeatsIsRefused() {
        assertEquals("h.jsonl:2: index: 3 does not increase (previous 3)",
                refused("{\"index\":3,\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n"
                        + "{\"index\":3,\"type\":\"ok\",\"process\":0,\"f\":\"acquire\"}\n"));
    }

    @Test
    void processMustBeAWholeNumberInRangeOrNemesis() {
        assertEquals("h.jsonl:1: process: out of range (2147483648)",
                refused("{\"type\":\"invoke\",\"process\":2147483648,\"f\":\"acquire\"}\n"));
        assertEquals("h.jsonl:1: process: out of range (-1)",
                refused("{\"type\":\"invoke\",\"process\":-1,\"f\":\"acquire\"}\n"));
        assertEquals("h.jsonl:1: process: expected a whole number or \"nemesis\", got an array",
                refused("{\"type\":\"invoke\",\"process\":[1],\"f\":\"acquire\"}\n"));
        assertEquals("h.jsonl:1: process: expected a whole number or \"nemesis\", got an object",
                refused("{\"type\":\"invoke\",\"process\":{},\"f\":\"acquire\"}\n"));
        assertEquals("h.jsonl:1: process: expected a whole number or \"nemesis\", got 'n'",
                refused("{\"type\":\"invoke\",\"process\":\"n\",\"f\":\"acquire\"}\n"));
    }

    @Test
    void deepNestingIsRefusedInOurOwnWords() {
        String deep = "{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\",\"value\":" + "[".repeat(1500)
                + "]".repeat(1500) + "}\n";
        assertEquals("h.jsonl:1: line: nested more than 1000 levels deep", refused(deep));
    }

    @Test
    void anErrorMayBeAnyJsonValue() throws Exception {
        History h = read("{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n"
                + "{\"type\":\"fail\",\"process\":0,\"f\":\"acquire\",\"error\":{\"why\":[1,2]}}\n"
                + "{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n"
                + "{\"type\":\"fail\",\"process\":0,\"f\":\"acquire\",\"error\":42}\n");
        assertEquals("{why=[1, 2]}", h.get(1).error());
        assertEquals("42", h.get(3).error());
    }

    @Test
    void aMalformedLineIsNamedOnItsFirstLineOfMessage() {
        String m = refused("{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n{\"type\": }\n"
                + "{\"type\":\"invoke\",\"process\":1,\"f\":\"acquire\"}\n");
        assertEquals(1, m.lines().count(), m);
        assertEquals(true, m.startsWith("h.jsonl:2: line: malformed JSON ("), m);
    }

    @Test
    void aCutLastLineIsDroppedWithAWarningButAMalformedOneInTheMiddleIsNot() throws Exception {
        History h = read("{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\n{\"type\":\"ok\",\"proc");
        assertEquals(1, h.size());
        assertEquals("h.jsonl:2: truncated last line dropped", h.warnings().get(0));
        History crlf = read("{\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\"}\r\n"
                + "{\"type\":\"ok\",\"process\":0,\"f\":\"acquire\"}\r\n");
        assertEquals(2, crlf.size());
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedWithTheirLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path f = dir.resolve("bad.jsonl");
        byte[] good = "{\"index\":0,\"time\":1,\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\",\"key\":\"/l\"}\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] bad = "{\"index\":1,\"time\":2,\"type\":\"ok\",\"process\":0,\"f\":\"acquire\",\"key\":\"/l"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.write(good);
        b.write(bad);
        b.write(new byte[] {(byte) 0xff, (byte) 0xfe, '"', '}', '\n'});
        java.nio.file.Files.write(f, b.toByteArray());
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> JsonlHistoryReader.read(f));
        assertEquals(f + ":2: line: malformed JSON (Invalid UTF-8 start byte 0xff)", e.getMessage());
    }

    @Test
    void bytesThatAreNotUtf8OnAnUnterminatedLastLineAreRefusedNotDropped(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path f = dir.resolve("cut.jsonl");
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.write("{\"index\":0,\"time\":1,\"type\":\"invoke\",\"process\":0,\"f\":\"acquire\",\"key\":\"/l\"}\n"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        b.write("{\"index\":1,\"key\":\"".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        b.write(new byte[] {(byte) 0xc3, (byte) 0x28}); // not UTF-8, and no newline after it
        java.nio.file.Files.write(f, b.toByteArray());
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> JsonlHistoryReader.read(f));
        assertTrue(e.getMessage().startsWith(f + ":2: line: malformed JSON (Invalid UTF-8"), e.getMessage());
    }
}
