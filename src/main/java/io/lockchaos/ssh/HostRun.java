package io.lockchaos.ssh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run started and changed on one host, and the keeper that undoes it. The run's folder there ({@value
 * #BASE}{@code -UID/HOST/RUN}, UID the login user's id) holds its uploads, its servers' data and logs, the pids it started ({@code pids}, each
 * with its start time, so that a pid reused by another process is never killed) and the keeper script. The keeper
 * is a shell whose standard input is the runner's connection: when that ends, however the runner ended (a normal
 * close, an exception, SIGKILL, a lost network), it kills the run's processes, deletes the iptables rules that carry
 * the run's comment and removes the folder. A keeper that could not finish (the host rebooted, it was killed) is
 * found by the next run's sweep: a folder whose keeper is gone is undone the same way.
 *
 * <p>The keeper runs as the login user (often root) from that folder, so another user of the host who could write
 * there first could run code as the login user. The folders are therefore private and checked before anything is
 * uploaded or run: {@code lockchaos-ssh-UID} and {@code HOST} are made mode 0700 unless they exist, the run's folder
 * is made afresh (a {@code mkdir} that fails if it exists), and each must be a folder, not a link, owned by the login
 * user, mode 0700; every folder above them must be writable by no one else unless it is sticky and root's or the login
 * user's ({@code /tmp}), and owned by root or the login user. A folder that is not is refused in one line naming the
 * host and the folder (see {@link #FOLDERS}). The sweep touches only folders the login user owns.
 */
public final class HostRun implements AutoCloseable {
    /** Where runs keep their folders on a host, followed by {@code -UID}: one folder per login user. */
    public static final String BASE = "/tmp/lockchaos-ssh";

    /**
     * Makes and checks the run's folders: argument 1 the login user's folder, 2 the host's folder in it, 3 the run's
     * folder in that (made afresh) or empty (only the first two). Prints {@code ok}, or {@code refused FOLDER: WHY}.
     * POSIX sh and {@code stat -c}, as the sweep uses; runs as the login user.
     */
    static final String FOLDERS = """
            me=$(id -u)
            refuse() { echo "refused $1: $2"; exit 0; }
            check_private() {
              if [ -L "$1" ]; then refuse "$1" "is a symbolic link"; fi
              if [ ! -d "$1" ]; then refuse "$1" "is not a folder"; fi
              info=$(stat -c '%u %a' -- "$1") || refuse "$1" "cannot be read"
              if [ "${info% *}" != "$me" ]; then
                refuse "$1" "is owned by uid ${info% *}, not by the login user (uid $me)"
              fi
              if [ "${info#* }" != 700 ]; then refuse "$1" "has mode ${info#* }, not 700"; fi
            }
            up=${1%/*}
            while :; do
              d=${up:-/}
              if [ -e "$d" ]; then
                info=$(stat -L -c '%u %a' -- "$d") || refuse "$d" "cannot be read"
                owner=${info% *}
                mode=0${info#* }
                if [ "$owner" != 0 ] && [ "$owner" != "$me" ]; then
                  refuse "$d" "is owned by uid $owner, neither root nor the login user (uid $me)"
                fi
                if [ $((mode & 022)) -ne 0 ] && [ $((mode & 01000)) -eq 0 ]; then
                  refuse "$d" "is writable by others and not sticky"
                fi
              fi
              if [ -z "$up" ]; then break; fi
              up=${up%/*}
            done
            for d in "$1" "$2"; do
              if [ ! -e "$d" ] && [ ! -L "$d" ]; then mkdir -m 0700 -- "$d" 2> /dev/null; fi
              check_private "$d"
            done
            if [ -n "$3" ]; then
              mkdir -m 0700 -- "$3" 2> /dev/null || refuse "$3" "exists already or cannot be made"
              check_private "$3"
            fi
            echo ok
            """;

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

    /** The login user {@code uid}'s folder on a host: what {@link #base} is in. */
    static String userFolder(String uid) {
        return BASE + "-" + uid;
    }

    /**
     * The folder of {@code host}'s runs of the login user {@code uid}: one per host name, so that hosts sharing a file
     * system stay apart.
     */
    public static String base(String uid, String host) {
        return userFolder(uid) + "/" + host.replaceAll("[^A-Za-z0-9.-]", "_");
    }

    /**
     * Makes the run's folders private (see {@link #FOLDERS}): {@code run} null for the user's and the host's folders
     * alone.
     *
     * @throws IOException in one line naming the host and the folder, when one is not the login user's alone
     */
    static void makePrivate(SshHost host, String base, String run) throws IOException {
        String top = base.substring(0, base.lastIndexOf('/'));
        String said = host.exec(SshHost.commandLine(List.of("sh", "-c", FOLDERS, "sh", top, base,
                run == null ? "" : base + "/" + run)), null, "check the run's folders in " + base).strip();
        if (!said.equals("ok")) {
            String why = said.startsWith("refused ") ? said.substring(8) : "no answer from the check (" + said + ")";
            throw new IOException("host " + host.host() + ": " + why.lines().findFirst().orElse("")
                    + "; a run's folder must be the login user's alone (remove it, or fix the folder above)");
        }
    }

    /** Sweeps what dead runs left on {@code host}, then makes this run's folder and starts its keeper. */
    public static HostRun begin(SshHost host, String run) throws IOException {
        if (!run.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("run id: " + run);
        }
        String base = base(host.uid(), host.host());
        makePrivate(host, base, null);
        sweep(host, base, host.uid());
        makePrivate(host, base, run);
        String dir = base + "/" + run;
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
     * Undoes every run in {@code base} (made private already) whose keeper is gone; a folder without a keeper file is
     * left alone for a minute (a run setting up) and undone after that. Only folders of the login user {@code uid},
     * not links, are touched.
     */
    static List<String> sweep(SshHost host, String base, String uid) throws IOException {
        List<String> swept = new ArrayList<>();
        // one line a folder: NAME OWNER [KEEPER_PID KEEPER_START] | MTIME NOW; a folder that goes while listed prints
        // no MTIME, and nothing here may fail the shell that runs it (a failed arithmetic expansion would end it)
        String listing = host.exec("cd " + SshHost.commandLine(List.of(base))
                + " && for d in *; do [ -d \"$d\" ] && [ ! -L \"$d\" ] && echo \"$d $(stat -c %u \"$d\" 2>/dev/null)"
                + " $(cat \"$d/keeper\" 2>/dev/null | tr -d '\\n') | $(stat -c %Y \"$d\" 2>/dev/null) $(date +%s)\";"
                + " done; true", null, "list the runs in " + base);
        for (String line : listing.lines().toList()) {
            String[] parts = line.split("\\|");
            String[] head = parts[0].trim().split("\\s+");
            String name = head[0];
            if (!name.matches("[a-z0-9-]+")) {
                continue; // not a run of ours
            }
            if (head.length < 2 || !head[1].equals(uid)) {
                continue; // another user's: never ours to undo, nor to run a script of
            }
            String[] times = parts.length > 1 ? parts[1].trim().split("\\s+") : new String[0];
            if (times.length < 2) {
                continue; // gone while listed
            }
            long age = Long.parseLong(times[1]) - Long.parseLong(times[0]);
            boolean live;
            if (head.length >= 4) {
                live = head[3].equals(startOf(host, head[2]));
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
