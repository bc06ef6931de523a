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
}
