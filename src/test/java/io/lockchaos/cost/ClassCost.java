package io.lockchaos.cost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Appends one line per test class to {@code target/test-cost/<pid>.tsv}: the class, its wall seconds and its CPU
 * seconds. The CPU is this JVM's and that of every child it waited for, children's children included when their
 * parent waited for them (the kernel's {@code cutime} and {@code cstime}), as {@code /proc/self/stat} counts them: a
 * class's servers, agents and shell commands, but not containers, whose processes belong to the Docker daemon. Each
 * test JVM runs its classes one at a time, so the difference over a class is that class's. Where there is no
 * {@code /proc} it writes nothing.
 *
 * <p>{@code sort -t$'\t' -k3 -rn target/test-cost/*.tsv} lists the dearest first.
 */
public final class ClassCost implements TestExecutionListener {
    private static final Path STAT = Path.of("/proc/self/stat");
    private static final Path OUT = Path.of("target", "test-cost");
    /** Clock ticks per second: the kernel's USER_HZ, 100 on every Linux architecture lockchaos runs on. */
    private static final double TICKS = 100.0;

    private record Start(long nanos, long ticks) {
    }

    private final Map<String, Start> started = new ConcurrentHashMap<>();

    @Override
    public void executionStarted(TestIdentifier id) {
        String name = className(id);
        long ticks = ticks();
        if (name != null && ticks >= 0) {
            started.put(name, new Start(System.nanoTime(), ticks));
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        String name = className(id);
        Start s = name == null ? null : started.remove(name);
        long ticks = ticks();
        if (s == null || ticks < 0) {
            return;
        }
        String line = String.format(Locale.ROOT, "%s\t%.1f\t%.1f\t%s%n", name, (System.nanoTime() - s.nanos()) / 1e9,
                (ticks - s.ticks()) / TICKS, result.getStatus());
        try {
            Files.createDirectories(OUT);
            Files.writeString(OUT.resolve(ProcessHandle.current().pid() + ".tsv"), line, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // a measurement only: a test run must not fail for want of it
        }
    }

    /** The top-level class a container of tests stands for, or null for anything else. */
    private static String className(TestIdentifier id) {
        // a nested class runs inside its outer one, which counts it already
        return id.isContainer() && id.getSource().orElse(null) instanceof ClassSource c
                && !c.getClassName().contains("$") ? c.getClassName() : null;
    }

    /** utime + stime + cutime + cstime of this JVM, in clock ticks; -1 where they cannot be read. */
    static long ticks() {
        try {
            String stat = Files.readString(STAT, StandardCharsets.US_ASCII);
            // the command name, in parentheses, may hold spaces: the fields are counted after its closing one
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            // fields 14-17 of proc(5), counted from the state (field 3) at index 0
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
