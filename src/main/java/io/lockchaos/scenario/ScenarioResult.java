package io.lockchaos.scenario;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import io.lockchaos.core.Runner;
import io.lockchaos.core.TestSpec;
import io.lockchaos.report.OverlapStory;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What one scenario run found.
 *
 * @param spec the test that ran
 * @param dir its store folder (history, results, reports)
 * @param result the checkers' result
 * @param stories how each double holder happened
 * @param detectedAfterSeconds seconds from the start of the run to the live sight of the first double holder, or -1
 */
public record ScenarioResult(TestSpec spec, Path dir, CheckResult result, List<OverlapStory> stories,
                             double detectedAfterSeconds) {
    static ScenarioResult of(TestSpec spec, Runner.Outcome o) {
        return new ScenarioResult(spec, o.dir(), o.result(), o.stories(), o.detectedAfterSeconds());
    }

    public Verdict verdict() {
        return result.verdict();
    }

    public boolean isInvalid() {
        return result.verdict() == Verdict.INVALID;
    }

    /** Every anomaly of every checker. */
    public List<Anomaly> anomalies() {
        return result.allAnomalies();
    }

    /** The kinds of the anomalies that made the result invalid. */
    public Set<AnomalyKind> violations() {
        return result.violationKinds();
    }
}
