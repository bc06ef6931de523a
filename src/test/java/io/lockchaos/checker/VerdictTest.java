package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The exit codes scripts and CI read: 0 valid, 1 invalid, 2 unknown, whatever the order of the enum. */
class VerdictTest {
    @Test
    void eachVerdictHasItsExitCode() {
        assertEquals(0, Verdict.VALID.exitCode());
        assertEquals(1, Verdict.INVALID.exitCode());
        assertEquals(2, Verdict.UNKNOWN.exitCode());
    }

    @Test
    void mergingKeepsTheWorstAndTheWireNamesAreLowerCase() {
        assertEquals(Verdict.INVALID, Verdict.UNKNOWN.and(Verdict.INVALID));
        assertEquals(Verdict.INVALID, Verdict.INVALID.and(Verdict.VALID));
        assertEquals(Verdict.UNKNOWN, Verdict.VALID.and(Verdict.UNKNOWN));
        assertEquals(Verdict.UNKNOWN, Verdict.UNKNOWN.and(Verdict.VALID));
        assertEquals(Verdict.VALID, Verdict.VALID.and(Verdict.VALID));
        assertEquals("valid", Verdict.VALID.wireName());
        assertEquals("unknown", Verdict.UNKNOWN.wireName());
        assertEquals("invalid", Verdict.INVALID.wireName());
    }
}
