package io.lockchaos.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow") // starts child processes
class PgReaperTest {
    /** The reaper's cheap walk finds what the JDK's walk of every process finds: children and their children. */
    @Test
    void theTreeUnderAProcessIsItsDescendantsAsTheJdkFindsThem() throws Exception {
        // a shell with two children, one of which has a child of its own
        Process p = new ProcessBuilder("bash", "-c", "sleep 30 & bash -c 'sleep 30 & wait' & wait").start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (p.descendants().count() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Set<Long> jdk = Stream.concat(Stream.of(p.pid()), p.descendants().map(ProcessHandle::pid))
                    .collect(Collectors.toSet());
            assertEquals(4, jdk.size(), "the shell, its two children and a grandchild: " + jdk);
            assertEquals(jdk, PgReaper.tree(p.pid()));
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
        }
        assertTrue(PgReaper.tree(p.pid()).isEmpty(), "a process that is gone has no tree");
    }
}
