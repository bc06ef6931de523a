package io.lockchaos.core;

import io.lockchaos.checker.Verdict;
import java.util.Optional;

/**
 * How a run is judged beyond its recipe's checkers.
 *
 * @param expect the verdict a scenario is expected to reach, or null when the workload states none
 */
public record CheckSpec(Verdict expect) {
    public Optional<Verdict> expected() {
        return Optional.ofNullable(expect);
    }
}
