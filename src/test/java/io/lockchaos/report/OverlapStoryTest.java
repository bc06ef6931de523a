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
        CheckResult r = Checkers.forRecipe(Recipe.lease("pg-lease")).check(h);
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

    @Test
    void aStoryThatCrossesAStallOfTheRunnerSaysSo() {
        long s = 1_000_000_000L;
        Map<String, Object> stall = new java.util.LinkedHashMap<>();
        stall.put("start_ns", 2 * s);
        stall.put("end_ns", 7 * s);
        stall.put("duration_ns", 5 * s);
        List<Op> ops = new java.util.ArrayList<>(List.of(
                Op.of(OpType.INVOKE, s / 10, 0, Fn.ACQUIRE, "/k", null),
                Op.of(OpType.OK, s, 0, Fn.ACQUIRE, "/k", Map.of("node", "/k/n1", "session", 7L, "owner", 7L,
                        "seq", 1L)),
                Op.of(OpType.INVOKE, s + 1, 1, Fn.ACQUIRE, "/k", null),
                // recorded when the runner ran again, inside an open nemesis op: a stall pairs with nothing
                Op.of(OpType.INVOKE, 7 * s, Op.NEMESIS, Fn.HEAL, null, null),
                Op.of(OpType.OK, 7 * s + 2, Op.NEMESIS, Fn.STALL, null, stall),
                Op.of(OpType.OK, 7 * s + 3, Op.NEMESIS, Fn.HEAL, null, null),
                Op.of(OpType.OK, 8 * s, 1, Fn.ACQUIRE, "/k", Map.of("node", "/k/n2", "session", 8L, "owner", 8L,
                        "seq", 2L)),
                Op.of(OpType.INVOKE, 9 * s, 0, Fn.RELEASE, "/k", null),
                Op.of(OpType.OK, 9 * s + 1, 0, Fn.RELEASE, "/k", null),
                // a second stall after the story: not told in it
                Op.of(OpType.OK, 20 * s, Op.NEMESIS, Fn.STALL, null, Map.of("start_ns", 15 * s, "end_ns", 20 * s))));
        History h = History.ofValid(ops);
        CheckResult r = Checkers.forRecipe(Recipe.MUTEX).check(h);
        List<OverlapStory> stories = OverlapStory.of(h, r, Map.of());
        assertEquals(1, stories.size(), r.toString());
        assertEquals(List.of("how the double holder of /k happened:",
                "     1.000 s  process 0 is granted /k on session 0x7",
                "     2.000 s  the runner itself was frozen for 5.0 s (until 7.000 s): its clients could renew nothing"
                        + " meanwhile, so what expired then may be the runner's doing, not the lock service's",
                "     8.000 s  process 1 is granted /k",
                "  both held it for 1.000 s"), stories.get(0).lines());
        assertEquals(List.of(new RunnerStalls.Stall(2 * s, 7 * s), new RunnerStalls.Stall(15 * s, 20 * s)),
                RunnerStalls.of(h));
        assertEquals("the runner itself was frozen 2 times, 10.0 s in all (the longest 5.0 s at 2.0 s)",
                RunnerStalls.brief(RunnerStalls.of(h)));
        Map<String, Object> about = new java.util.LinkedHashMap<>();
        about.put("history", "h.jsonl");
        about.put("ops", h.size());
        about.put("runner_stalls", RunnerStalls.toMaps(RunnerStalls.of(h).subList(0, 1)));
        assertEquals("h.jsonl (10 ops, the runner itself was frozen for 5.0 s at 2.0 s)", Reports.headline(about));
    }
}
