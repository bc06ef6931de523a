package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large file is parsed in pieces at once; whatever the file holds, the pieces must give exactly what one sequential
 * reading gives: the same ops (times of an untimed history run on across pieces), the same warnings, and for a bad
 * file the same one-line error with the same absolute line.
 */
class JsonlPiecesTest {
    @TempDir
    Path dir;

    /** A valid timed history of {@code rounds} acquire/release rounds over 5 processes, values nested. */
    private static List<String> lines(int rounds, boolean timed) {
        List<String> out = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < rounds; i++) {
            int p = i % 5;
            String time = timed ? "\"time\":" + (t += 7) + "," : "";
            out.add("{" + time + "\"type\":\"invoke\",\"process\":" + p + ",\"f\":\"acquire\",\"key\":\"/lock/"
                    + (i % 3) + "\"}");
            time = timed ? "\"time\":" + (t += 7) + "," : "";
            out.add("{" + time + "\"type\":\"ok\",\"process\":" + p + ",\"f\":\"acquire\",\"key\":\"/lock/" + (i % 3)
                    + "\",\"value\":{\"node\":\"/lock/n-" + i + "\",\"token\":" + i + ",\"x\":[1,{\"a\":null},\"é\"]}}");
            time = timed ? "\"time\":" + (t += 7) + "," : "";
            out.add("{" + time + "\"type\":\"invoke\",\"process\":" + p + ",\"f\":\"release\",\"key\":\"/lock/"
                    + (i % 3) + "\"}");
            time = timed ? "\"time\":" + (t += 7) + "," : "";
            out.add("{" + time + "\"type\":\"" + (i % 7 == 3 ? "fail" : "ok") + "\",\"process\":" + p
                    + ",\"f\":\"release\",\"key\":\"/lock/" + (i % 3) + "\",\"error\":" + (i % 7 == 3 ? "\"x\"" : "null")
                    + "}");
        }
        return out;
    }

    private void agree(String name, String text) throws Exception {
        PieceAgreement.agree(JsonlHistoryReader::read, dir.resolve(name + ".jsonl"), text);
    }

    private void agreeInPieces(String name, String text) throws Exception {
        PieceAgreement.agree(JsonlHistoryReader::read, dir.resolve(name + ".jsonl"), text, true);
    }

    @Test
    void piecesReadWhatOneReadingReads() throws Exception {
        SplittableRandom r = new SplittableRandom(20261203L);
        System.out.println("JsonlPiecesTest seed 20261203");
        String timed = String.join("\n", lines(300, true)) + "\n";
        agreeInPieces("timed", timed);
        agreeInPieces("untimed", String.join("\n", lines(300, false)) + "\n");
        agree("no-final-newline", timed.strip());
        agree("truncated", timed + "{\"time\":99999,\"type\":\"inv");
        // each of the five variants at least once; all twenty unless -Dlockchaos.prop.cases asks for fewer (mutation)
        int variants = Math.max(5, Math.min(20, Integer.getInteger(io.lockchaos.prop.Property.CASES_PROPERTY, 2000)
                / 100));
        for (int k = 0; k < variants; k++) {
            List<String> ls = lines(300, true);
            int at = r.nextInt(ls.size());
            switch (k % 5) {
                case 0 -> ls.set(at, ls.get(at).substring(0, ls.get(at).length() / 2));
                case 1 -> ls.set(at, ls.get(at).replace(",", ",\n  "));
                case 2 -> ls.add(at, "");
                case 3 -> ls.set(at, ls.get(at).replaceFirst("\"time\":[0-9]+,", ""));
                default -> ls.add(at, "{\"time\":1,\"type\":\"ok\",\"process\":77,\"f\":\"acquire\"}");
            }
            agree("variant" + k, String.join("\n", ls) + "\n");
        }
    }

    @Test
    void anErrorLateInTheFileNamesItsAbsoluteLine() throws Exception {
        List<String> ls = lines(300, true);
        ls.add(1000, "{\"time\":2,\"type\":\"ok\",\"process\":77,\"f\":\"acquire\"}");
        Path f = dir.resolve("late.jsonl");
        Files.writeString(f, String.join("\n", ls) + "\n", StandardCharsets.UTF_8);
        for (int pieces = 1; pieces <= 4; pieces++) {
            int n = pieces;
            HistoryFormatException e = org.junit.jupiter.api.Assertions.assertThrows(HistoryFormatException.class,
                    () -> JsonlHistoryReader.read(f, n));
            assertEquals(1001, e.line(), e.getMessage());
            assertTrue(e.getMessage().contains("no invocation in flight"), e.getMessage());
        }
    }
}
