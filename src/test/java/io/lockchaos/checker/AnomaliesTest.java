package io.lockchaos.checker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnomaliesTest {
    private static Anomaly a(AnomalyKind k) {
        return Anomaly.of(k, "/l", List.of(), 0, 0, k.wireName(), Map.of());
    }

    @Test
    void theCapLimitsTheListNeverTheVerdictOrTheKinds() {
        Anomalies all = new Anomalies();
        for (int i = 0; i < 150; i++) {
            all.add(a(AnomalyKind.LOST_LOCK));
        }
        assertEquals(Verdict.VALID, all.verdict());
        for (int i = 0; i < 150; i++) {
            all.add(a(AnomalyKind.ORPHAN_NODE));
        }
        all.add(a(AnomalyKind.LEAKED_LOCK));
        assertEquals(Verdict.INVALID, all.verdict());
        assertEquals(301, all.total());
        List<Anomaly> listed = all.listed();
        assertEquals(AnomalyKind.ORPHAN_NODE, listed.get(0).kind(), "violations are listed first");
        assertTrue(listed.stream().anyMatch(x -> x.kind() == AnomalyKind.LEAKED_LOCK), "every kind is listed");
        assertEquals(201, listed.size());
        assertEquals(100, all.unlisted());
        CheckResult r = CheckResult.of("leaks", all, Map.of());
        assertEquals(100L, r.stats().get("anomalies_not_listed"));
        assertEquals(java.util.Set.of(AnomalyKind.ORPHAN_NODE, AnomalyKind.LEAKED_LOCK), r.violationKinds());
    }
}
