package io.lockchaos.ssh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run started and changed on one host, and the keeper that undoes it. The run's folder there ({@value
 * #BASE}{@code /HOST/RUN}) holds its uploads, its servers' data and logs, the pids it started ({@code pids}, each
 * with its start time, so that a pid reused by another process is never killed) and the keeper script. The keeper
 * is a shell whose standard input is the runner's connection: when that ends, however the runner ended (a normal
 * close, an exception, SIGKILL, a lost network), it kills the run's processes, deletes the iptables rules that carry
 * the run's comment and removes the folder. A keeper that could not finish (the host rebooted, it was killed) is
 * found by the next run's sweep: a folder whose keeper is gone is undone the same way.
 */
public final class HostRun implements AutoCloseable {
    /** Where runs keep their folders on a host. */
    public static final String BASE = "/tmp/lockchaos-ssh";

    /** The keeper: argument 1 the run's folder, 2 the run, 3 {@code now} to undo at once (the sweep). */
    static final String KEEPER = """
            # lockchaos keeper: when the runner's connection ends, undo what its run did on this host
            dir=$1
            run=$2
            start_of() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
            if [ "$3" != now ]; then
              echo "$$ $(start_of $$)" > "$dir/keeper"
              cat > /dev/null
            fi
            if [ -f "$dir/pids" ]; then
              while read -r pid start; do
                if [ -n "$pid" ] && [ "$(start_of "$pid")" = "$start" ]; then kill -9 "$pid" 2>/dev/null; fi
              done < "$dir/pids"
            fi
            PATH=$PATH:/usr/sbin:/sbin
            if [ "$(id -u)" = 0 ]; then sudo=; else sudo="sudo -n"; fi
            if command -v iptables > /dev/null 2>&1; then
              $sudo iptables -w 5 -S 2> /dev/null | grep -F -- "lockchaos.$run." | sed 's/^-A /-D /; s/"//g' |
                while read -r rule; do $sudo iptables -w 5 $rule; done
            fi
            rm -rf -- "$dir"
            rmdir -- "${dir%/*}" "${dir%/*/*}" 2> /dev/null
            true
            """;

    private final SshHost host;
    private final String run;
    private final String dir;
    private final SshHost.Background keeper;

    private HostRun(SshHost host, String run, String dir, SshHost.Background keeper) {
        this.host = host;
        this.run = run;
        this.dir = dir;
        this.keeper = keeper;
    }

    /** The folder of {@code host}'s runs: one per host name, so that hosts sharing a file system stay apart. */
    static String base(String host) {
        return BASE + "/" + host.replaceAll("[^A-Za-z0-9.-]", "_");
    }

    /** Sweeps what dead runs left on {@code host}, then makes this run's folder and starts its keeper. */
    public static HostRun begin(SshHost host, String run) throws IOException {
        if (!run.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("run id: " + run);
        }
        String base = base(host.host());
        sweep(host, base);
        String dir = base + "/" + run;
        host.run(List.of("mkdir", "-p", "--", dir));
        host.write(dir + "/keeper.sh", KEEPER);
        SshHost.Background keeper = host.start(dir, List.of("sh", dir + "/keeper.sh", dir, run), null);
        HostRun r = new HostRun(host, run, dir, keeper);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!host.run(List.of("ls", "--", dir)).lines().anyMatch("keeper"::equals)) {
            if (!keeper.alive() || System.nanoTime() > deadline) {
                throw new IOException("host " + host.host() + ": the run's keeper did not start");
            }
            sleep(20);
        }
        return r;
    }

    /**
     * Undoes every run in {@code base} whose keeper is gone; a folder without a keeper file is left alone for a
     * minute (a run setting up) and undone after that.
     */
    static List<String> sweep(SshHost host, String base) throws IOException {
        List<String> swept = new ArrayList<>();
        // one line a folder: NAME [KEEPER_PID KEEPER_START] | MTIME NOW; a folder that goes while listed prints no
        // MTIME, and nothing here may fail the shell that runs it (a failed arithmetic expansion would end it)
        String listing = host.exec("mkdir -p " + SshHost.commandLine(List.of(base)) + " && cd "
                + SshHost.commandLine(List.of(base)) + " && for d in *; do [ -d \"$d\" ] && echo \"$d $(cat \"$d/keeper\""
                + " 2>/dev/null | tr -d '\\n') | $(stat -c %Y \"$d\" 2>/dev/null) $(date +%s)\"; done; true", null,
                "list the runs in " + base);
        for (String line : listing.lines().toList()) {
            String[] parts = line.split("\\|");
            String[] head = parts[0].trim().split("\\s+");
            String name = head[0];
            if (!name.matches("[a-z0-9-]+")) {
                continue; // not a run of ours
            }
            String[] times = parts.length > 1 ? parts[1].trim().split("\\s+") : new String[0];
            if (times.length < 2) {
                continue; // gone while listed
            }
            long age = Long.parseLong(times[1]) - Long.parseLong(times[0]);
            boolean live;
            if (head.length >= 3) {
                live = head[2].equals(startOf(host, head[1]));
            } else {
                live = age < 60;
            }
            if (!live) {
                String d = base + "/" + name;
                host.exec("if [ -f " + SshHost.commandLine(List.of(d + "/keeper.sh")) + " ]; then sh "
                        + SshHost.commandLine(List.of(d + "/keeper.sh", d, name, "now")) + "; else rm -rf -- "
                        + SshHost.commandLine(List.of(d)) + "; fi", null, "sweep " + d);
                swept.add(name);
            }
        }
        return swept;
    }

    /** The start time (clock ticks after boot) of process {@code pid}, or "" when there is none. */
    static String startOf(SshHost host, String pid) throws IOException {
        String stat = host.exec("cat /proc/" + SshHost.commandLine(List.of(pid)) + "/stat 2>/dev/null; true",
                null, "read the start of " + pid);
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return "";
        }
        String[] f = stat.substring(close + 2).trim().split("\\s+");
        return f.length > 19 ? f[19] : "";
    }

    /** The run's folder on the host. */
    public String dir() {
        return dir;
    }

    public SshHost host() {
        return host;
    }

    /** The comment on this run's rules for fault {@code tag}: the keeper and {@link #clearRules} find them by it. */
    public String ruleComment(String tag) {
        return "lockchaos." + run + "." + tag.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Lists {@code pid} among the run's processes, so that the keeper kills it. */
    public void recordProcess(long pid) throws IOException {
        String start = startOf(host, Long.toString(pid));
        if (!start.isEmpty()) {
            host.append(dir + "/pids", pid + " " + start);
        }
    }

    /** Deletes every iptables rule this run added on the host (those with its comment). */
    public void clearRules() throws IOException {
        String rules = host.runAsRoot(List.of("iptables", "-w", "5", "-S"));
        for (String rule : rules.lines().toList()) {
            if (rule.startsWith("-A ") && rule.contains("lockchaos." + run + ".")) {
                List<String> del = new ArrayList<>(List.of("iptables", "-w", "5", "-D"));
                for (String t : rule.substring(3).split("\\s+")) {
                    del.add(t.replace("\"", ""));
                }
                try {
                    host.runAsRoot(del);
                } catch (IOException e) {
                    if (!String.valueOf(e.getMessage()).contains("matching rule")) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Whether the keeper still waits (the run's folder is there). */
    public boolean keeperAlive() {
        return keeper.alive();
    }

    /** Closes each run (its keeper undoes it), then each host's connection; nulls (hosts never reached) are skipped. */
    public static void closeAll(List<HostRun> runs, List<SshHost> hosts) {
        for (HostRun r : runs) {
            if (r != null) {
                r.close();
            }
        }
        for (SshHost h : hosts) {
            if (h != null) {
                h.close();
            }
        }
    }

    /** Ends the keeper's input and waits for it to undo the run. */
    @Override
    public void close() {
        keeper.endInput();
        keeper.awaitExit(java.time.Duration.ofSeconds(30));
        keeper.close();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
