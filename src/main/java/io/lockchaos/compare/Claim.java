package io.lockchaos.compare;

/** A row of the tutorial's table: what it compares, in its words and ours. */
public enum Claim {
    RELIABILITY("Reliability", "可靠性"),
    PERFORMANCE("Performance", "性能"),
    COMPLEXITY("Implementation complexity", "实现复杂度"),
    HERD("Herd effect", "羊群效应"),
    LOCK_TYPES("Lock types", "锁类型"),
    RECOVERY("Failure recovery", "故障恢复");

    private final String title;
    private final String original;

    Claim(String title, String original) {
        this.title = title;
        this.original = original;
    }

    public String title() {
        return title;
    }

    /** The row's name in the tutorial. */
    public String original() {
        return original;
    }
}
