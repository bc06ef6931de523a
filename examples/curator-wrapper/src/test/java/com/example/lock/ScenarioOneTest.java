package com.example.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.Verdict;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scenario 1 (the holder cut off longer than its session timeout) on both wrappers, each loaded in client agents from
 * this project's classes and its own dependencies, as `--lock-jar target/classes:target/lib/*` would.
 */
class ScenarioOneTest {
    /** lockchaos' scenario file, in the checkout this example lives in. */
    private static final Path SCENARIO = Path.of(System.getProperty("lockchaos.workloads", "../../workloads"),
            "scenario-1-partition-ignore.json");
    private static final List<Path> LOCK_CLASSPATH = List.of(Path.of("target/classes"), Path.of("target/lib/*"));

    private static ScenarioResult run(Class<?> factory) throws Exception {
        return Scenario.fromWorkload(SCENARIO).lock(factory.getName(), LOCK_CLASSPATH)
                .store(Path.of("target/histories")).console(System.out).run();
    }

    @Test
    void theWrapperThatIgnoresConnectionStateHasTwoHolders() throws Exception {
        ScenarioResult r = run(IgnoringLockFactory.class);
        assertEquals(Verdict.INVALID, r.verdict(), "see " + r.dir());
        assertTrue(r.violations().contains(AnomalyKind.DOUBLE_HOLDER), "violations: " + r.violations());
    }

    @Test
    void theFixedWrapperStopsAtSuspended() throws Exception {
        ScenarioResult r = run(FencedLockFactory.class);
        assertEquals(Verdict.VALID, r.verdict(), "see " + r.dir());
    }
}
