package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.OpType;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.SimConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineTest {
    @TempDir
    Path dir;

    /** p3 holds /l (reentrantly once), p1 waits and times out, p1 is told SUSPENDED, the nemesis pauses a node. */
    static History tiny() {
        return new Ops()
                .op(OpType.INVOKE, 0, 3, Fn.ACQUIRE, "/l", null)          // 0
                .op(OpType.OK, 10, 3, Fn.ACQUIRE, "/l", null)             // 1
                .op(OpType.INVOKE, 12, 1, Fn.ACQUIRE, "/l", null)         // 2
                .op(OpType.INVOKE, 15, 3, Fn.ACQUIRE, "/l", null)         // 3
                .op(OpType.OK, 16, 3, Fn.ACQUIRE, "/l", null)             // 4
                .op(OpType.INVOKE, 20, 3, Fn.RELEASE, "/l", null)         // 5
                .op(OpType.OK, 21, 3, Fn.RELEASE, "/l", null)             // 6
                .op(OpType.OK, 25, 1, Fn.STATE, null, Map.of("state", "SUSPENDED"))  // 7
                .nemesis(26, Fn.PAUSE, Map.of("node", "n1"))              // 8, 9
                .op(OpType.FAIL, 30, 1, Fn.ACQUIRE, "/l", null)           // 10
                .op(OpType.INVOKE, 40, 3, Fn.RELEASE, "/l", null)         // 11
                .op(OpType.FAIL, 45, 3, Fn.RELEASE, "/l", null)           // 12
                .build();
    }

    @Test
    void aHoldTheLibraryTookAwayEndsAtItsRevocation() {
        History h = new Ops()
                .op(OpType.INVOKE, 0, 0, Fn.ACQUIRE, "/e", null)          // 0
                .op(OpType.OK, 10, 0, Fn.ACQUIRE, "/e", null)             // 1
                .op(OpType.OK, 30, 0, Fn.STATE, null, Map.of("state", "REVOKED", "why", "notLeader"))  // 2
                .op(OpType.INVOKE, 40, 0, Fn.ACQUIRE, "/e", null)         // 3
                .build();
        TimelineData d = TimelineData.of(h, CheckResult.of("x", List.of(), Map.of()), 100);
        long[] hold = d.holds().get(0);
        assertEquals(30, hold[2], "its end is the revocation, not the end of the history");
        assertEquals(30, hold[3]);
        assertEquals(TimelineData.REVOKED, hold[4] & TimelineData.REVOKED);
        assertEquals(TimelineData.STATES.indexOf("REVOKED"), (int) d.states().get(0)[2]);
    }

    @Test
    void theFinalPhasesProcessesAreLabelledByWhatTheyDo() throws Exception {
        io.lockchaos.history.History h = io.lockchaos.history.JsonlHistoryReader.read(
                java.nio.file.Path.of("histories/examples/scenario-1-partition-ignore/history.jsonl"));
        List<String> lanes = TimelineData.of(h, CheckResult.of("x", List.of(), Map.of()), 100).lanes();
        assertEquals("probe 1000000", lanes.get(lanes.size() - 2), lanes.toString());
        assertEquals("final read 1000001", lanes.get(lanes.size() - 1), lanes.toString());
        assertEquals("p 0", lanes.get(1));
    }

    @Test
    void lanesWaitsHoldsStatesAndMarks() {
        Anomaly a = Anomaly.of(AnomalyKind.LOST_LOCK, "/l", List.of(11L, 1L), 10, Long.MAX_VALUE, "lost", Map.of());
        TimelineData d = TimelineData.of(tiny(), CheckResult.of("x", List.of(a), Map.of()), 100);
        assertEquals(List.of("nemesis", "p 1", "p 3"), d.lanes());
        assertEquals(3, d.waits().size());
        assertArrayEquals(new long[] {2, 0, 10, TimelineData.OK, 0}, d.waits().get(0));
        assertArrayEquals(new long[] {1, 12, 30, TimelineData.FAIL, 2}, d.waits().get(1));
        // The nested grant ends at the first release; the outer one at the failed second release.
        assertArrayEquals(new long[] {2, 10, 40, 45, TimelineData.RELEASE_FAILED, 0}, d.holds().get(0));
        assertArrayEquals(new long[] {2, 16, 20, 21, 0, 3}, d.holds().get(1));
        assertArrayEquals(new long[] {1, 25, 0, 7}, d.states().get(0));
        assertEquals(List.of(new FaultPeriods.Period("pause n1", 26, 45, false, 8, -1)), d.faults());
        assertEquals("pause", d.nemesis().get(0).label());
        TimelineData.Marked m = d.anomalies().get(0);
        assertEquals(45, m.end(), "an open-ended anomaly ends with the history");
        assertArrayEquals(new long[] {2, 40, 11, 2, 10, 1}, m.marks());
        assertNull(d.note());
    }

    @Test
    void overTheCapKeepsWindowsNearAnomaliesThenTheEarliestAndSaysSo() {
        History h = LockSimulator.run(SimConfig.defaults(Recipe.MUTEX).withTargetOps(2000), 5).history();
        Anomaly late = Anomaly.of(AnomalyKind.DOUBLE_HOLDER, "/lock/0", List.of(), h.endTime() - 1, h.endTime(),
                "late", Map.of());
        TimelineData d = TimelineData.of(h, CheckResult.of("x", List.of(late), Map.of()), 100);
        assertTrue(d.windows() > 100);
        assertEquals(100, d.waits().size() + d.holds().size());
        assertTrue(d.note().contains("more than the page draws (100)"), d.note());
        long lateOnes = d.waits().stream().filter(w -> w[2] >= h.endTime() - h.endTime() / 1000 - 1).count();
        assertTrue(lateOnes > 0, "windows near the late anomaly are kept");
        assertTrue(d.waits().stream().anyMatch(w -> w[1] < h.endTime() / 10), "and the earliest ones");
    }

    @Test
    void overTheCapWithoutAnomaliesSaysItKeepsTheEarliest() {
        History h = LockSimulator.run(SimConfig.defaults(Recipe.MUTEX).withTargetOps(2000), 5).history();
        TimelineData d = TimelineData.of(h, CheckResult.of("x", List.of(), Map.of()), 100);
        assertEquals(100, d.waits().size() + d.holds().size());
        assertTrue(d.note().contains("It shows every window that starts before "), d.note());
        assertTrue(!d.note().contains("near the anomalies"), d.note());
    }

    @Test
    void aHundredThousandOpHistoryGivesAPageOfAFewMegabytes() throws Exception {
        History h = LockSimulator.run(SimConfig.defaults(Recipe.REENTRANT_MUTEX).withProcesses(100)
                .withTargetOps(100_000).withInfoRate(0.01), 7).history();
        assertTrue(h.size() >= 100_000, "ops: " + h.size());
        CheckResult r = Checkers.forRecipe(Recipe.REENTRANT_MUTEX).check(h);
        long t = System.nanoTime();
        Reports.writeAll(dir, h, r, Map.of("history", "sim", "ops", h.size()));
        long ms = (System.nanoTime() - t) / 1_000_000;
        long size = Files.size(dir.resolve("timeline.html"));
        System.out.printf("100k-op report: %,d ops, timeline.html %,d bytes, all reports in %d ms%n", h.size(), size,
                ms);
        assertTrue(size < 15_000_000, "timeline.html is " + size + " bytes");
        String html = Files.readString(dir.resolve("timeline.html"));
        assertTrue(html.contains("\"waits\":[") && html.contains("\"holds\":["));
        assertTrue(!html.contains("\"note\":"), "100k ops stay under the cap");
        for (String plot : List.of("latency.svg", "latency-quantiles.svg", "rate.svg")) {
            assertTrue(Files.size(dir.resolve(plot)) < 10_000_000, plot + " is " + Files.size(dir.resolve(plot)));
        }
    }

    /** Any string of a history lands in the page's data: none may end or open an element there (#42, defect 5). */
    @Test
    void noStringOfTheHistoryCanEndOrOpenAnythingInThePage() throws Exception {
        String hostile = "<!--<script></script><!-- -->";
        History h = new Ops()
                .op(OpType.INVOKE, 0, 3, Fn.ACQUIRE, "/l" + hostile, null)
                .op(OpType.OK, 10, 3, Fn.ACQUIRE, "/l" + hostile, Map.of("node", hostile))
                .nemesis(26, Fn.PAUSE, Map.of("node", "n1" + hostile))
                .build();
        Reports.writeAll(dir, h, Checkers.forRecipe(Recipe.MUTEX).check(h), Map.of("name", "t" + hostile));
        String html = Files.readString(dir.resolve("timeline.html"));
        String open = "<script type=\"application/json\" id=\"lockchaos-data\">";
        int from = html.indexOf(open) + open.length();
        int to = html.indexOf("</script>", from);
        String data = html.substring(from, to);
        assertTrue(data.contains("n1\\u003c!--\\u003cscript>"), "the nemesis op's node is in the data, escaped");
        assertEquals(-1, data.indexOf('<'), "no '<' at all in the embedded data");
        String title = new com.fasterxml.jackson.databind.ObjectMapper().readTree(data).get("title").asText();
        assertTrue(title.startsWith("t" + hostile), "the same string once parsed: " + title);
    }
}
