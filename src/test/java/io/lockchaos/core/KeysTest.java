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
        GeneratedSection.assertIs(Keys.markdownTable(), Path.of("docs/commands.md"), "<!-- keys: generated from"
                + " core/Keys.java (Keys.markdownTable()); KeysTest checks it is this table -->", "<!-- /keys -->",
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

    /** A key no record holds (open_tries): declared once, it is read, range-checked and written back by name. */
    @Test
    void aKeyDeclaredAloneIsReadCheckedAndWrittenBack() throws Exception {
        assertEquals(3, TestSpec.DEFAULTS.number("open_tries"));
        TestSpec five = TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("open_tries", "5"));
        assertEquals(5, five.number("open_tries"));
        assertEquals(5L, five.toMap().get("open_tries"));
        assertEquals("w.json: open_tries: expected 1 to 100, got 0", org.junit.jupiter.api.Assertions.assertThrows(
                SpecException.class, () -> TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("open_tries", "0")))
                .getMessage());
        assertEquals("w.json: open_tries: expected a whole number, got 'x'",
                org.junit.jupiter.api.Assertions.assertThrows(SpecException.class,
                        () -> TestSpecs.with("w.json", TestSpec.DEFAULTS, Map.of("open_tries", "x"))).getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> TestSpec.DEFAULTS.text("open_tries"), "read by its declared type only");
    }
}
