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
            assertTrue(line.matches("\\[ *[0-9.]+ / 12 s\\] 250 ops, [0-9]+ ops/s, faults: isolate-client holder"),
                    line);
            ops.addAndGet(100);
            assertTrue(p.line().contains("350 ops"), p.line());
            p.announce("  ! live: 2 holders");
        }
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("  ! live: 2 holders" + System.lineSeparator()), printed);
    }
}
