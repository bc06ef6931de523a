package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the piece tests assert: a file read in 2 to 7 pieces gives exactly what one sequential reading gives (every op,
 * every pairing, the warnings, or the same one-line error).
 */
final class PieceAgreement {
    /** A reader of a file in a given number of pieces. */
    interface Reader {
        History read(Path file, int pieces) throws Exception;
    }

    private PieceAgreement() {
    }

    /** Everything a reading gives, as text: ops, completion positions, warnings; or the error. */
    static String outcome(Reader reader, Path f, int pieces) throws Exception {
        try {
            History h = reader.read(f, pieces);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < h.size(); i++) {
                b.append(h.get(i)).append(' ').append(h.completionOf(i)).append('\n');
            }
            return b.append(h.warnings()).toString();
        } catch (HistoryFormatException e) {
            return "error " + e.getMessage();
        }
    }

    /** Writes {@code text} to {@code f} and asserts that every number of pieces reads it as one reading does. */
    static void agree(Reader reader, Path f, String text) throws Exception {
        agree(reader, f, text, false);
    }

    /** As {@link #agree(Reader, Path, String)}; with {@code clean}, every reading in pieces must use the pieces. */
    static void agree(Reader reader, Path f, String text, boolean clean) throws Exception {
        Files.writeString(f, text, StandardCharsets.UTF_8);
        long before = FilePieces.CLEAN.get();
        String whole = outcome(reader, f, 1);
        for (int pieces = 2; pieces <= 7; pieces++) {
            assertEquals(whole, outcome(reader, f, pieces), f.getFileName() + " in " + pieces + " pieces");
        }
        if (clean) {
            assertEquals(before + 6, FilePieces.CLEAN.get(), f.getFileName() + ": read in pieces, not again in order");
        }
    }
}
