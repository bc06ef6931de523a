package io.lockchaos.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The check that a runner's children die with it: starts {@code holder} (a main that starts children, prints their
 * pids on one line and waits) in a JVM of its own, SIGKILLs it (no shutdown hook runs), and waits up to 10 s for every
 * child to be gone. Children still alive after that are ended here, by pid, and the test fails.
 */
public final class KilledRunner {
    private KilledRunner() {
    }

    public static void childrenDieWith(Class<?> holder, int children, String what, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), holder.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process runner = pb.start();
        List<Long> pids = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(runner.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertNotNull(line, "the holder printed its " + what + "s' pids");
            for (String p : line.split(" ")) {
                pids.add(Long.parseLong(p));
            }
            assertEquals(children, pids.size());
            for (long p : pids) {
                assertTrue(ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false), "running: " + p);
            }
        } finally {
            runner.destroyForcibly(); // SIGKILL: no shutdown hook runs
            runner.waitFor(10, TimeUnit.SECONDS);
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            for (long p : pids) {
                while (running(p)) {
                    assertTrue(System.nanoTime() < deadline, what + " " + p + " outlived its runner");
                    Thread.sleep(20);
                }
            }
        } finally {
            for (long p : pids) {
                ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /**
     * Whether {@code pid} still runs: a zombie does not (it holds nothing but its entry, until the process that
     * inherited it, init here, collects it; this machine's init does so only now and then).
     */
    private static boolean running(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException e) {
            return false; // gone between the two looks
        }
    }
}
