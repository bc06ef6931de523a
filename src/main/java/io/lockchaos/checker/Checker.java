package io.lockchaos.checker;

import io.lockchaos.history.History;

/** A pure function from a history to a result. Implementations must not print and must not modify the history. */
public interface Checker {
    /** A short stable name, used in reports and JUnit XML. */
    String name();

    /** Checks the history. May throw; {@link Checkers#safe} turns that into an unknown result. */
    CheckResult check(History history);
}
