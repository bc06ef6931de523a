package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A page's section between an opening comment line and a closing one, which a generator's output must equal. */
final class GeneratedSection {
    private GeneratedSection() {
    }

    /** Asserts that {@code page} holds exactly {@code generated} between {@code start} (a whole line) and {@code end}. */
    static void assertIs(String generated, Path page, String start, String end, String regenerate)
            throws IOException {
        String doc = Files.readString(page);
        int i = doc.indexOf(start + "\n");
        int j = doc.indexOf(end, i);
        assertTrue(i >= 0 && j > i, page + " has the generated section between its markers");
        assertEquals(generated, doc.substring(i + start.length() + 1, j), regenerate);
    }
}
