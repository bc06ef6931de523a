package io.lockchaos.cost;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ClassCostTest {
    @Test
    void theCpuCountedHoldsThisJvmsWorkAndThatOfAChildItWaitedFor() throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/proc/self/stat")), "no /proc here: the listener writes nothing");
        long before = ClassCost.ticks();
        assertTrue(before >= 0, "read: " + before);
        long threadBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long until = System.nanoTime() + 300_000_000L;
        long spin = 0;
        while (System.nanoTime() < until) {
            spin++;
        }
        long spent = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadBefore;
        long own = ClassCost.ticks();
        // a tick is 10 ms; two of slack for the reads' rounding
        assertTrue(own - before >= spent / 10_000_000 - 2, "this thread spent " + spent / 1e6 + " ms (" + spin
                + " turns), counted " + (own - before) + " ticks");
        // a child that counts for a while and says what it spent; once waited for, its CPU is this JVM's children's
        Process p = new ProcessBuilder("bash", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; times")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        long after = ClassCost.ticks();
        Matcher m = Pattern.compile("(\\d+)m([\\d.]+)s (\\d+)m([\\d.]+)s").matcher(out);
        assertTrue(m.find(), out);
        double child = Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2))
                + Integer.parseInt(m.group(3)) * 60 + Double.parseDouble(m.group(4));
        assertTrue(after - own >= Math.round(child * 100) - 2, "the child spent " + child + " s, counted "
                + (after - own) + " ticks");
    }
}
