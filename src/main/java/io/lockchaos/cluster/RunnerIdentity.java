package io.lockchaos.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who made a namespace or a container, beyond a bare pid: the boot, the pid namespace, the pid and the process's start
 * time. A sweep that judged by the pid alone would take a live runner's things for a dead one's where pids repeat
 * (another pid namespace sharing the engine or /run/netns, or a pid reused after the runner died), or keep a dead
 * one's when its pid came back as another process.
 */
final class RunnerIdentity {
    private static final String CURRENT = compute(ProcessHandle.current());

    private RunnerIdentity() {
    }

    /** This runner: {@code boot-id/pid-namespace/pid/start-millis}. */
    static String current() {
        return CURRENT;
    }

    private static String compute(ProcessHandle p) {
        return bootId() + "/" + pidNamespace() + "/" + p.pid() + "/" + startMillis(p);
    }

    private static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).strip();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String pidNamespace() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replaceAll("[^0-9]", "");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }

    /**
     * Whether the runner {@code identity} names is certainly gone: another boot, or in our pid namespace a pid that no
     * longer runs or now belongs to a process started at another time. A runner of another pid namespace cannot be
     * judged from here and is never called gone; neither is a malformed identity.
     */
    static boolean gone(String identity) {
        String[] f = identity == null ? new String[0] : identity.strip().split("/");
        if (f.length != 4) {
            return false;
        }
        String[] mine = CURRENT.split("/");
        if (!f[0].equals(mine[0])) {
            return !f[0].equals("unknown") && !mine[0].equals("unknown"); // the machine rebooted since
        }
        if (!f[1].equals(mine[1]) || f[1].equals("unknown")) {
            return false;
        }
        try {
            long pid = Long.parseLong(f[2]);
            long start = Long.parseLong(f[3]);
            return ProcessHandle.of(pid).map(p -> !p.isAlive() || start != 0 && startMillis(p) != 0
                    && startMillis(p) != start).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
