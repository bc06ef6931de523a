package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large EDN history is parsed in pieces at once; the pieces must give exactly what one sequential reading gives:
 * the same ops (nemesis halves paired across piece boundaries, times of an untimed history running on), warnings and
 * errors, with absolute lines.
 */
class EdnPiecesTest {
    @TempDir
    Path dir;

    /** Jepsen's form: one op map per line; nemesis start and stop as :info pairs every few rounds. */
    private static List<String> lines(int rounds, boolean timed) {
        List<String> out = new ArrayList<>();
        long[] t = {0};
        java.util.function.Supplier<String> time = () -> timed ? ":time " + (t[0] += 7) + " " : "";
        for (int i = 0; i < rounds; i++) {
            int p = i % 5;
            String k = "\"/lock/" + (i % 3) + "\"";
            out.add("{" + time.get() + ":type :invoke, :process " + p + ", :f :acquire, :key " + k + ", :value nil}");
            out.add("{" + time.get() + ":type :ok, :process " + p + ", :f :acquire, :key " + k + ", :value {:node \"n-"
                    + i + "\", :token " + i + ", :x [1 #{2} (3 :y) \"é\"]}}");
            if (i % 4 == 1) {
                out.add("{" + time.get() + ":type :info, :process :nemesis, :f :start, :value [:isolate " + i + "]}");
                out.add("{" + time.get() + ":type :info, :process :nemesis, :f :start, :value \"cut\"}");
            }
            out.add("{" + time.get() + ":type :invoke, :process " + p + ", :f :release, :key " + k + "}");
            out.add("#jepsen.history.Op{" + time.get() + ":type :ok, :process " + p + ", :f :release, :key " + k
                    + "} #_ \"a discard\"");
        }
        return out;
    }

    private void agree(String name, String text) throws Exception {
        PieceAgreement.agree(EdnHistory::read, dir.resolve(name + ".edn"), text);
    }

    private void agreeInPieces(String name, String text) throws Exception {
        PieceAgreement.agree(EdnHistory::read, dir.resolve(name + ".edn"), text, true);
    }

    @Test
    void piecesReadWhatOneReadingReads() throws Exception {
        SplittableRandom r = new SplittableRandom(20261203L);
        System.out.println("EdnPiecesTest seed 20261203");
        String timed = String.join("\n", lines(200, true)) + "\n";
        agreeInPieces("timed", timed);
        agreeInPieces("untimed", String.join("\n", lines(200, false)) + "\n");
        agree("truncated", timed + "{:time 99999 :type :inv");
        agree("vector", "[" + String.join("\n", lines(100, true)) + "]\n");
        // each of the five variants at least once; all twenty unless -Dlockchaos.prop.cases asks for fewer (mutation)
        int variants = Math.max(5, Math.min(20, Integer.getInteger(io.lockchaos.prop.Property.CASES_PROPERTY, 2000)
                / 100));
        for (int k = 0; k < variants; k++) {
            List<String> ls = lines(200, true);
            int at = r.nextInt(ls.size());
            switch (k % 5) {
                case 0 -> ls.set(at, ls.get(at).substring(0, ls.get(at).length() / 2));
                case 1 -> ls.set(at, ls.get(at).replace(", ", "\n  "));
                case 2 -> ls.add(at, "; a comment");
                case 3 -> ls.set(at, ls.get(at).replaceFirst(":time [0-9]+ ", ""));
                default -> ls.add(at, "{:time 1 :type :ok :process 77 :f :acquire}");
            }
            agree("variant" + k, String.join("\n", ls) + "\n");
        }
    }

    /**
     * Knossos' one-vector form cannot be cut at lines, so it is read in order; whitespace, commas and non-ASCII bytes
     * (a byte-order mark) before the bracket do not hide it, and a head of nothing but blanks is not guessed at.
     */
    @Test
    void aVectorFileIsReadInOrderAndAFileOfLinesInPieces() throws Exception {
        String ops = String.join("\n", lines(20, true));
        String bom = new String(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, StandardCharsets.UTF_8);
        for (String head : List.of("", " ,\t\r\n", bom, " ".repeat(5000))) {
            Path f = dir.resolve("vector.edn");
            Files.writeString(f, head + "[" + ops + "]\n", StandardCharsets.UTF_8);
            long before = FilePieces.CLEAN.get();
            assertEquals(EdnHistory.read(f, 1).size(), EdnHistory.read(f, 4).size());
            assertEquals(before, FilePieces.CLEAN.get(), "a vector after '" + head.strip() + "' read in order");
        }
        for (String head : List.of("", " ,\n", "; a comment\n")) {
            Path f = dir.resolve("lines.edn");
            Files.writeString(f, head + ops + "\n", StandardCharsets.UTF_8);
            long before = FilePieces.CLEAN.get();
            EdnHistory.read(f, 4);
            assertEquals(before + 1, FilePieces.CLEAN.get(), "lines after '" + head.strip() + "' read in pieces");
        }
    }

    @Test
    void nemesisHalvesPairAcrossPieces() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            b.append("{:time ").append(i).append(" :type :info :process :nemesis :f :kill :value ").append(i)
                    .append("}\n");
        }
        Path f = dir.resolve("nemesis.edn");
        Files.writeString(f, b.toString(), StandardCharsets.UTF_8);
        for (int pieces = 1; pieces <= 5; pieces++) {
            History h = EdnHistory.read(f, pieces);
            for (int i = 0; i < h.size(); i++) {
                assertEquals(i % 2 == 0 ? OpType.INVOKE : OpType.INFO, h.get(i).type(), "op " + i + ", " + pieces
                        + " pieces");
            }
        }
    }
}
