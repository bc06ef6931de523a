package io.lockchaos.hunt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.fault.FaultKind;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A hunt files what a lock does by design under its faults apart from new bugs: every fault of the run is one that
 * brings it about, and every anomaly is one it brings (two holders and what follows from them).
 */
class LimitationsTest {
    private static final Limitations LIMITATIONS = Limitations.load();

    private static Optional<String> match(String recipe, Set<AnomalyKind> shown, Set<FaultKind> faults) {
        return LIMITATIONS.match(recipe, shown, faults).map(Limitations.Limitation::id);
    }

    @Test
    void aHolderPausedOrExpiredOrALeaseOutlivedInACutIsByDesign() {
        assertEquals(Optional.of("session-ended-by-the-servers"),
                match("mutex", EnumSet.of(AnomalyKind.DOUBLE_HOLDER), EnumSet.of(FaultKind.EXPIRE)));
        assertEquals(Optional.of("paused-past-its-claim"), match("shedlock-jdbc",
                EnumSet.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE), EnumSet.of(FaultKind.PAUSE_CLIENT)));
        assertEquals(Optional.of("lease-outlived-in-a-cut"),
                match("redisson", EnumSet.of(AnomalyKind.DOUBLE_HOLDER), EnumSet.of(FaultKind.ISOLATE_CLIENT)));
    }

    @Test
    void anythingElseStaysAFinding() {
        // a session lock's holder cut off is told SUSPENDED before its session can end: two holders there are news
        assertEquals(Optional.empty(),
                match("mutex", EnumSet.of(AnomalyKind.DOUBLE_HOLDER), EnumSet.of(FaultKind.ISOLATE_CLIENT)));
        // another fault beside the limitation's
        assertEquals(Optional.empty(), match("leader-latch", EnumSet.of(AnomalyKind.DOUBLE_HOLDER),
                EnumSet.of(FaultKind.EXPIRE, FaultKind.PAUSE)));
        // an anomaly the limitation does not bring about
        assertEquals(Optional.empty(), match("mutex", EnumSet.of(AnomalyKind.DOUBLE_HOLDER,
                AnomalyKind.FOREIGN_OWNER_GRANT), EnumSet.of(FaultKind.EXPIRE)));
        assertEquals(Optional.empty(), match("mutex", EnumSet.of(AnomalyKind.DOUBLE_HOLDER), EnumSet.noneOf(
                FaultKind.class)));
    }

    @Test
    void aFindingShrinksTowardsWhatNoLimitationExplains() {
        // the hunt's rw run under expires and interrupts: the shrinker kept only an expire, which still showed two
        // holders, and lost the interrupts behind the leak and the token regressions
        assertEquals(EnumSet.of(AnomalyKind.LEAKED_LOCK, AnomalyKind.TOKEN_REGRESSION), LIMITATIONS.shrinkTarget(
                EnumSet.of(AnomalyKind.RW_CONFLICT, AnomalyKind.LEAKED_LOCK, AnomalyKind.TOKEN_REGRESSION)));
        assertEquals(EnumSet.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE), LIMITATIONS.shrinkTarget(
                EnumSet.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE)));
    }
}
