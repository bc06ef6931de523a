package io.lockchaos.pg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Ends the PostgreSQL processes of a runner that died without closing its servers. A postmaster dies with the runner
 * (its parent-death signal), and its backends end once they notice; but a backend that was SIGSTOPped (a server pause)
 * notices nothing and would stay stopped for ever, and PostgreSQL's children each leave the postmaster's process
 * group, so no group signal reaches them. This small JVM, started beside the servers and not tied to the runner, reads
 * the postmasters' pids from a file the runner keeps current across restarts and remembers, every 20 ms, every
 * process under them. When the runner is gone it SIGKILLs each remembered process that is still the same program, and
 * exits; when the file is gone (the servers were closed), it exits.
 *
 * <p>Arguments: the runner's pid and the file of postmaster pids, one per line.
 */
public final class PgReaper {
    /** How often the reaper looks; a pause waits longer than this before it returns (see PgServers#pause). */
    static final long POLL_MILLIS = 20;

    private PgReaper() {
    }

    public static void main(String[] args) throws Exception {
        long runner = Long.parseLong(args[0]);
        Path postmasters = Path.of(args[1]);
        Map<Long, String> seen = new HashMap<>();
        while (Files.exists(postmasters)) {
            List<String> pids;
            try {
                pids = Files.readAllLines(postmasters);
            } catch (IOException e) {
                pids = List.of(); // being replaced: the processes seen so far stand
            }
            for (String p : pids) {
                if (p.matches("[0-9]+")) {
                    for (long pid : tree(Long.parseLong(p))) {
                        if (!seen.containsKey(pid)) {
                            ProcessHandle.of(pid).ifPresent(h -> remember(seen, h));
                        }
                    }
                }
            }
            if (!ProcessHandle.of(runner).map(ProcessHandle::isAlive).orElse(false)) {
                seen.forEach((pid, command) -> ProcessHandle.of(pid)
                        .filter(h -> h.info().command().map(command::equals).orElse(false))
                        .ifPresent(ProcessHandle::destroyForcibly));
                return;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * {@code root} and every process under it, from the kernel's list of each thread's children (a few small files)
     * rather than by reading every process of the machine as {@link ProcessHandle#descendants()} does: at 50 looks a
     * second that walk cost the reaper 1.3-1.5 s of CPU in a 15 s run (0.8 s this way). Where the kernel keeps no
     * such list, the walk it is. Empty when {@code root} is gone.
     */
    static Set<Long> tree(long root) {
        Set<Long> out = new LinkedHashSet<>();
        Deque<Long> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            long pid = todo.pop();
            Path tasks = Path.of("/proc", Long.toString(pid), "task");
            List<Path> threads;
            try (Stream<Path> s = Files.list(tasks)) {
                threads = s.toList();
            } catch (IOException e) {
                continue; // gone meanwhile
            }
            out.add(pid);
            for (Path t : threads) {
                Path children = t.resolve("children");
                if (!Files.exists(children)) {
                    return ProcessHandle.of(root).map(h -> {
                        Set<Long> all = new LinkedHashSet<>(List.of(root));
                        h.descendants().forEach(d -> all.add(d.pid()));
                        return all;
                    }).orElse(Set.of());
                }
                try {
                    for (String c : Files.readString(children).trim().split(" ")) {
                        if (!c.isEmpty()) {
                            todo.push(Long.parseLong(c));
                        }
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile: its children, if any, are now another's
                }
            }
        }
        return out;
    }

    private static void remember(Map<Long, String> seen, ProcessHandle h) {
        Optional<String> command = h.info().command();
        command.ifPresent(c -> seen.put(h.pid(), c));
    }
}
