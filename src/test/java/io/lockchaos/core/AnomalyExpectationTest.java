package io.lockchaos.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.AnomalyKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** expect_anomalies and expect_no_anomalies: read from a workload, refused when impossible, judged against a run. */
class AnomalyExpectationTest {
    @TempDir
    Path dir;

    @Test
    void aWorkloadNamesKindsAsAJsonListOrAsTextAndGetsThemBackAsText() throws Exception {
        Path f = dir.resolve("w.json");
        Files.writeString(f, "{\"name\": \"w\", \"expect\": \"invalid\", \"expect_anomalies\": [\"double-holder\","
                + " \"lost-update\"], \"expect_no_anomalies\": \"leaked-lock, orphan-node\"}");
        TestSpec s = TestSpecs.load(f);
        assertEquals(new AnomalyExpectation(Set.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE),
                Set.of(AnomalyKind.LEAKED_LOCK, AnomalyKind.ORPHAN_NODE)), s.checking().anomalies());
        assertEquals("double-holder lost-update", s.toMap().get("expect_anomalies"));
        assertEquals("leaked-lock orphan-node", s.toMap().get("expect_no_anomalies"));
        // the text form reads back to the same spec, as a stored run's test.json is read
        assertEquals(s.checking(), TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("expect", "invalid",
                "expect_anomalies", "double-holder lost-update", "expect_no_anomalies", "leaked-lock orphan-node"))
                .checking());
    }

    @Test
    void whatCannotBeMetIsOneLineNamingTheKey() throws Exception {
        String unknown = refusal(Map.of("expect_anomalies", "double-holders"));
        assertTrue(unknown.startsWith("t: expect_anomalies: 'double-holders' is no anomaly kind (expected some of"
                + " double-holder over-capacity rw-conflict "), unknown);
        assertTrue(unknown.endsWith(" nonlinearizable)"), unknown);
        assertEquals("t: expect_no_anomalies: double-holder is also in expect_anomalies",
                refusal(Map.of("expect_anomalies", "double-holder", "expect_no_anomalies", "double-holder")));
        assertEquals("t: expect_anomalies: double-holder makes a run invalid, and the workload expects a valid one"
                + " (expect valid, or no expect)", refusal(Map.of("expect", "valid", "expect_anomalies",
                "double-holder")));
        assertEquals("t: expect_anomalies: double-holder makes a run invalid, and the workload expects a valid one"
                + " (expect valid, or no expect)", refusal(Map.of("expect_anomalies", "double-holder")));
        // a verdict per release instead: which one applies is known only when the run's release is
        TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("expect_by_curator", "<5.5.0 invalid", "expect_anomalies",
                "double-holder"));
        // a note may come with a valid run: a holder that lost its lock and was told
        TestSpecs.with("t", TestSpec.DEFAULTS, Map.of("expect", "valid", "expect_anomalies", "lost-lock"));
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "{\"expect_anomalies\": [\"double-holder\", 3]}");
        assertEquals(f + ": expect_anomalies: expected anomaly kinds as strings, got 3",
                assertThrows(SpecException.class, () -> TestSpecs.load(f)).getMessage());
    }

    private static String refusal(Map<String, String> keys) {
        return assertThrows(SpecException.class, () -> TestSpecs.with("t", TestSpec.DEFAULTS, keys)).getMessage();
    }

    @Test
    void aRunMeetsItOnlyWithEveryExpectedKindAndNoneOfTheForbidden() {
        AnomalyExpectation e = new AnomalyExpectation(Set.of(AnomalyKind.DOUBLE_HOLDER),
                Set.of(AnomalyKind.LEAKED_LOCK));
        assertEquals("double-holder, and no leaked-lock", e.describe());
        assertEquals(List.of(), e.misses(Set.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE)));
        assertEquals(List.of("no double-holder", "leaked-lock seen"), e.misses(Set.of(AnomalyKind.LEAKED_LOCK)));
        assertEquals("no leaked-lock", new AnomalyExpectation(Set.of(), Set.of(AnomalyKind.LEAKED_LOCK)).describe());
        assertTrue(AnomalyExpectation.NONE.isEmpty());
        // on a release where the bug is fixed (expected valid by expect_by_curator) only the forbidden kinds remain
        AnomalyExpectation onFixed = new AnomalyExpectation(Set.of(AnomalyKind.FOREIGN_OWNER_GRANT, AnomalyKind.LOST_LOCK),
                Set.of(AnomalyKind.LEAKED_LOCK)).forVerdict(io.lockchaos.checker.Verdict.VALID);
        assertEquals(new AnomalyExpectation(Set.of(AnomalyKind.LOST_LOCK), Set.of(AnomalyKind.LEAKED_LOCK)), onFixed);
        assertEquals(e, e.forVerdict(io.lockchaos.checker.Verdict.INVALID));
        assertEquals(List.of(), AnomalyExpectation.NONE.misses(Set.of(AnomalyKind.LEAKED_LOCK)));
    }
}
