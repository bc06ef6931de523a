package io.lockchaos.checker.linear;

/**
 * How a lock model reads the evidence that the lock service released a hold by itself. Knossos knows no such
 * evidence: under its models a {@code :fail} did not happen, an {@code :info} may or may not have, and no error code
 * implies anything, so a model named like one of Knossos' means exactly that unless the evidence is asked for.
 */
public enum Expiry {
    /**
     * Knossos' reading: the history's ops are all there is. A release that failed {@code not-held}, an expired
     * session, a LOST connection and a crashed holder release nothing by themselves.
     */
    NONE("none"),
    /**
     * lockchaos' reading of its own runs: a holder's own {@code not-held} release, a nemesis expiry of the holder's
     * session, LOST, an unreconnected SUSPENDED and a crashed holder each let (or make) the lock service end that one
     * hold. A release by a process that holds nothing never ends another process's hold.
     */
    EVIDENCE("evidence");

    private final String wireName;

    Expiry(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /**
     * Parses {@code none} or {@code evidence}.
     *
     * @throws IllegalArgumentException with a one-line message naming both
     */
    public static Expiry parse(String s) {
        for (Expiry e : values()) {
            if (e.wireName.equals(s)) {
                return e;
            }
        }
        throw new IllegalArgumentException("expiry: expected none or evidence, got '" + s + "'");
    }
}
