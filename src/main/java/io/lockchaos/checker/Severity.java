package io.lockchaos.checker;

/** How much an anomaly weighs: a violation makes the result invalid, a suspect one unknown, a note neither. */
public enum Severity {
    VIOLATION(Verdict.INVALID), SUSPECT(Verdict.UNKNOWN), NOTE(Verdict.VALID);

    private final Verdict verdict;

    Severity(Verdict verdict) {
        this.verdict = verdict;
    }

    public Verdict verdict() {
        return verdict;
    }
}
