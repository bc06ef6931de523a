package io.lockchaos.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the doc-test comments promise, as {@link DocCommandsTest} reads them. */
class DocPromiseTest {
    @Test
    void anExitOrAnotherAcceptsEitherAndNothingElse() {
        DocCommandsTest.Promise p = DocCommandsTest.Promise.parse("exit 0 or 1, prints \"nemesis: at\"");
        assertTrue(p.exits(0) && p.exits(1));
        assertFalse(p.exits(2));
        assertEquals(List.of("nemesis: at"), p.prints());
        DocCommandsTest.Promise one = DocCommandsTest.Promise.parse("exit 1");
        assertTrue(one.exits(1));
        assertFalse(one.exits(0));
        assertTrue(DocCommandsTest.Promise.parse("prints \"x\"").exits(0), "exit 0 unless promised otherwise");
        DocCommandsTest.Promise serve = DocCommandsTest.Promise.parse("until \"listening\"");
        assertNull(serve.exit());
        assertEquals("listening", serve.until());
    }
}
