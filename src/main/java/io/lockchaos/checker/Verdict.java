package io.lockchaos.checker;

import java.util.Locale;

/** Valid, unknown or invalid. Merging keeps the worst: invalid beats unknown beats valid. */
public enum Verdict {
    VALID, UNKNOWN, INVALID;

    public Verdict and(Verdict other) {
        return compareTo(other) >= 0 ? this : other;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The process exit code for this verdict: 0 valid, 1 invalid, 2 unknown. */
    public int exitCode() {
        return this == VALID ? 0 : this == INVALID ? 1 : 2;
    }
}
