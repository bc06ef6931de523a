package io.lockchaos.pg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
                    ProcessHandle.of(Long.parseLong(p)).ifPresent(pm -> {
                        remember(seen, pm);
                        pm.descendants().forEach(d -> remember(seen, d));
                    });
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

    private static void remember(Map<Long, String> seen, ProcessHandle h) {
        Optional<String> command = h.info().command();
        command.ifPresent(c -> seen.put(h.pid(), c));
    }
}
