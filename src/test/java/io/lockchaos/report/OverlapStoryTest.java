package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A double holder's story names what happened to the servers meanwhile: a cut between them, a failover. */
class OverlapStoryTest {
    @Test
    void aFailoverAndTheCutBeforeItAreTold() {
        long s = 1_000_000_000L;
        Map<String, Object> grant = Map.of("node", "/k", "session", 7L, "owner", 7L, "seq", -1L);
        History h = History.ofValid(List.of(
                Op.of(OpType.INVOKE, s / 10, 0, Fn.ACQUIRE, "/k", null),
                Op.of(OpType.OK, s / 5, 0, Fn.ACQUIRE, "/k", grant),
                Op.of(OpType.INVOKE, s, Op.NEMESIS, Fn.PARTITION, null, Map.of("fault", "partition-halves")),
                Op.of(OpType.OK, s + 1, Op.NEMESIS, Fn.PARTITION, null, Map.of("fault", "partition-halves", "cut",
                        List.of(List.of(1, 2)))),
                Op.of(OpType.INVOKE, 5 * s, Op.NEMESIS, Fn.START, null, Map.of("fault", "failover")),
                Op.of(OpType.OK, 7 * s, Op.NEMESIS, Fn.START, null, Map.of("fault", "failover", "fenced",
                        List.of(1), "behind_bytes", 37584L, "promoted", 2)),
                Op.of(OpType.INVOKE, 7 * s + 1, 1, Fn.ACQUIRE, "/k", null),
                Op.of(OpType.OK, 7 * s + 2, 1, Fn.ACQUIRE, "/k", Map.of("node", "/k", "session", 8L, "owner", 8L,
                        "seq", -1L)),
                Op.of(OpType.INVOKE, 8 * s, 0, Fn.RELEASE, "/k", null),
                Op.of(OpType.OK, 8 * s + 1, 0, Fn.RELEASE, "/k", null)));
        CheckResult r = Checkers.forRecipe(Recipe.redisLease("pg-lease")).check(h);
        List<OverlapStory> stories = OverlapStory.of(h, r, Map.of());
        assertEquals(1, stories.size(), r.toString());
        assertEquals(List.of("how the double holder of /k happened:",
                "     0.200 s  process 0 is granted /k on session 0x7",
                "     1.000 s  nemesis: partition-halves cuts servers apart: [[1, 2]]",
                "     7.000 s  nemesis: failover to server 2 (server 1 fenced), which was 37584 bytes of the old"
                        + " primary's log behind",
                "     7.000 s  process 1 is granted /k",
                "  both held it for 1.000 s"), stories.get(0).lines());
    }

    @Test
    void aGrantOnANodeOfAnotherSessionIsToldWithThatSessionsExpiry() {
        long s = 1_000_000_000L;
        // process 0 is granted on a node its old session 5 owns; the server expires session 5 and process 1 is
        // granted; session 7, process 0's own, expires much later
        History h = History.ofValid(List.of(
                Op.of(OpType.INVOKE, s / 10, 0, Fn.ACQUIRE, "/k", null),
                Op.of(OpType.OK, s, 0, Fn.ACQUIRE, "/k", Map.of("node", "/k/n1", "session", 7L, "owner", 5L,
                        "seq", 1L)),
                Op.of(OpType.INVOKE, s + 1, 1, Fn.ACQUIRE, "/k", null),
                Op.of(OpType.OK, 2 * s, 1, Fn.ACQUIRE, "/k", Map.of("node", "/k/n2", "session", 8L, "owner", 8L,
                        "seq", 2L)),
                Op.of(OpType.INVOKE, 3 * s, 0, Fn.RELEASE, "/k", null),
                Op.of(OpType.FAIL, 3 * s + 1, 0, Fn.RELEASE, "/k", null),
                Op.of(OpType.INVOKE, 3 * s + 2, 1, Fn.RELEASE, "/k", null),
                Op.of(OpType.OK, 3 * s + 3, 1, Fn.RELEASE, "/k", null)));
        CheckResult r = Checkers.forRecipe(Recipe.MUTEX).check(h);
        List<OverlapStory> stories = OverlapStory.of(h, r, Map.of(5L, 2 * s - 1000, 7L, 30 * s));
        assertEquals(1, stories.size(), r.toString());
        List<String> lines = stories.get(0).lines();
        assertEquals("     1.000 s  process 0 is granted /k on session 0x7, on a node that session 0x5 owns",
                lines.get(1));
        assertEquals("     2.000 s  the server expires session 0x5 and deletes the lock node it owned", lines.get(2));
        assertEquals("     2.000 s  process 1 is granted /k", lines.get(3));
    }
}
