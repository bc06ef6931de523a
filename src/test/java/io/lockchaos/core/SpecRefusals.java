package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

/** A workload's keys over the defaults, validated as a file named {@code w.json} is: refused in one line, or taken. */
public final class SpecRefusals {
    private SpecRefusals() {
    }

    /** The line that refuses {@code keys}; the test fails when they are taken. */
    public static String refusal(Map<String, String> keys) {
        return assertThrows(SpecException.class, () -> accepted(keys)).getMessage();
    }

    /** Validates {@code keys}, throwing the refusal when they are not taken. */
    public static void accepted(Map<String, String> keys) throws SpecException {
        TestSpecs.validate("w.json", TestSpecs.with("w", TestSpec.DEFAULTS, keys));
    }
}
