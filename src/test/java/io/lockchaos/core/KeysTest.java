package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one declaration of the workload keys is what the defaults, test.json, the options and the manual say. */
class KeysTest {
    @Test
    void theManualsTableIsTheGeneratedOne() throws Exception {
        String doc = Files.readString(Path.of("docs/commands.md"));
        String start = "<!-- keys: generated from core/Keys.java (Keys.markdownTable()); KeysTest checks it is this"
                + " table -->\n";
        int i = doc.indexOf(start);
        int j = doc.indexOf("<!-- /keys -->", i);
        assertTrue(i >= 0 && j > i, "docs/commands.md has the generated table between its markers");
        assertEquals(Keys.markdownTable(), doc.substring(i + start.length(), j),
                "regenerate the table from Keys.markdownTable()");
    }

    @Test
    void testJsonHasEveryKeyInDeclarationOrderAndTheDefaultsReadBack() throws Exception {
        Map<String, Object> m = TestSpec.DEFAULTS.toMap();
        assertEquals(Keys.ALL.stream().map(Keys.Key::name).toList(), java.util.List.copyOf(m.keySet()));
        for (Keys.Key k : Keys.ALL) {
            assertEquals(k.defaultText(), String.valueOf(m.get(k.name())), k.name());
        }
    }

    @Test
    void everyOptionIsOneTheRunCommandHas() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.out;
        System.setOut(new java.io.PrintStream(bytes, true, "UTF-8"));
        try {
            io.lockchaos.cli.Main.run("run", "--help");
        } finally {
            System.setOut(saved);
        }
        String help = bytes.toString("UTF-8");
        for (Map.Entry<String, String> e : Keys.options().entrySet()) {
            assertTrue(help.contains(e.getValue() + "="), e.getKey() + ": " + e.getValue() + " missing from run --help");
        }
        assertNotNull(Keys.named("reentry_depth"));
        assertEquals(Keys.Type.INT, Keys.named("reentry_depth").type());
    }
}
