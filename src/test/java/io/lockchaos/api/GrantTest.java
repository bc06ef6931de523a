package io.lockchaos.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A grant says what kind it is; the history records the kind only where the token and facts do not say it. */
class GrantTest {
    @Test
    void eachFactoryMakesItsKind() {
        assertEquals(Grant.Kind.FENCED, Grant.fenced("/l/n-0000000003", 42, 7).kind());
        assertEquals(3, Grant.fenced("/l/n-0000000003", 42, 7).seq());
        assertEquals(Grant.Kind.LEASED, Grant.leased("job", 7, Map.of()).kind());
        assertEquals(Grant.Kind.SESSION, Grant.session("job", 7).kind());
        assertEquals(Grant.Kind.FENCED, Grant.of("/l", 5, 7).kind());
        assertEquals(Grant.Kind.SESSION, Grant.of("/l", -1, 7).kind(), "no token and nothing else: its session");
        assertEquals("a fenced grant needs a token (0 or more), got -1",
                assertThrows(IllegalArgumentException.class, () -> Grant.fenced("/l", -1, 7)).getMessage());
    }

    @Test
    void aGrantMadeWithoutAKindHasTheOneItsTokenAndFactsImply() {
        assertEquals(Grant.Kind.FENCED, new Grant("/l", 9, 1, 1, -1).kind());
        assertEquals(Grant.Kind.LEASED, new Grant("k", -1, 1, 1, -1, -1, Map.of("validity_ms", 900L)).kind());
        assertEquals(Grant.Kind.SESSION, new Grant("/l", -1, 1, 1, -1).kind());
    }

    @Test
    void theHistoryNamesTheKindOnlyWhereItIsNotImplied() {
        assertFalse(Grant.fenced("/l", 4, 1).toValue().containsKey("grant_kind"));
        assertFalse(new Grant("k", -1, 1, 1, -1, -1, Map.of("validity_ms", 900L)).toValue()
                .containsKey("grant_kind"));
        // ShedLock's row: no token, nothing else told, yet a lease
        assertEquals("leased", Grant.leased("job", 1, Map.of()).toValue().get("grant_kind"));
        assertEquals(Map.of("node", "job", "session", 1L, "owner", 1L, "seq", -1L, "lock_until_ms", 5L),
                Grant.leased("job", 1, Map.of("lock_until_ms", 5L)).toValue(), "facts already say it is leased");
        assertEquals("session", new Grant("k", -1, 1, 1, -1, -1, Map.of("pid", 3L), Grant.Kind.SESSION).toValue()
                .get("grant_kind"));
        assertEquals(Grant.Kind.LEASED, Grant.Kind.parse("leased"));
        assertEquals(null, Grant.Kind.parse("fencing"));
    }
}
