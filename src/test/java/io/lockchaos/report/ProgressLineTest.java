package io.lockchaos.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
    @Test
    void theLineSaysTimeOpsRateAndFaultsAndAnnouncementsGetALineOfTheirOwn() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AtomicLong ops = new AtomicLong(250);
        try (ProgressLine p = new ProgressLine(out, 12, ops::get, () -> List.of("isolate-client holder"))) {
            String line = p.line();
            assertTrue(line.matches("\\[ *[0-9.]+ / 12 s\\] workers: 250 ops, [0-9]+ ops/s, faults: isolate-client holder"),
                    line);
            ops.addAndGet(100);
            assertTrue(p.line().contains("350 ops"), p.line());
            p.announce("  ! live: 2 holders");
        }
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("  ! live: 2 holders" + System.lineSeparator()), printed);
    }

    @Test
    void pastThePlanTheClockStopsAtThePlan() throws Exception {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (ProgressLine p = new ProgressLine(out, 0, () -> 5, List::of)) {
            Thread.sleep(20);
            assertTrue(p.line().startsWith("[    0 / 0 s, finishing the last cycles] workers: 5 ops"), p.line());
        }
    }

    @Test
    void phasesSayWhatTheyDoAndHowLongItTook() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Phases phases = new Phases(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try (Phases.Step s = phases.start("starting 3 local ZooKeeper server(s)")) {
            assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("  starting 3 local ZooKeeper server(s) ... "),
                    "named before it ends");
        }
        assertTrue(bytes.toString(StandardCharsets.UTF_8).matches("  starting 3 local ZooKeeper server\\(s\\) \\.\\.\\."
                + " [0-9]+\\.[0-9] s" + System.lineSeparator()), bytes.toString(StandardCharsets.UTF_8));
        new Phases(null).start("silent").close(); // no console: nothing, and no failure
    }
}
