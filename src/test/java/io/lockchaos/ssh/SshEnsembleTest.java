package io.lockchaos.ssh;

import io.lockchaos.cluster.ServerNode;
import io.lockchaos.nemesis.IptablesPartitioner;
import io.lockchaos.zookeeper.FourLetterWords;
import io.lockchaos.zookeeper.SshEnsemble;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ZooKeeper over SSH on hosts of this machine's own ({@link SshLab}: namespaces running Debian's sshd), driven as a
 * user drives real hosts: the servers start from uploaded classes, serve, have their clocks moved, are killed, paused
 * and cut apart on their hosts, and nothing of the run is left on any host after it closes.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts sshd, servers over SSH and namespaces
class SshEnsembleTest {
    /** The lab logs in as root: its runs' folders are root's ({@link HostRun#base}). */
    static final String LAB_UID = "0";
    private static SshLab lab;

    @TempDir
    Path dir;

    @BeforeAll
    static void hosts(@TempDir Path labDir) throws Exception {
        if (SshLab.unavailable() == null) {
            lab = SshLab.create(3, labDir);
        }
    }

    /** Each test, not the class, is reported skipped with the reason where a lab cannot be made. */
    @BeforeEach
    void needsLab() {
        String why = SshLab.unavailable();
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
    }

    @AfterAll
    static void closeLab() throws Exception {
        if (lab != null) {
            lab.close();
        }
    }

    private static String mode(ServerNode n) {
        return FourLetterWords.mode(n, 500).orElse("down");
    }

    /**
     * The server's mode once it says {@code wanted}, or the last one seen after 5 s: a signal sent through the host's
     * shell lands a moment after the command returns, and on a loaded machine a follower once answered in between.
     */
    private static String modeSoon(ServerNode n, String wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String m = mode(n);
        while (!m.equals(wanted) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            m = mode(n);
        }
        return m;
    }

    private static ServerNode leader(SshEnsemble zk, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            for (ServerNode n : zk.nodes()) {
                if (mode(n).equals("leader")) {
                    return n;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no leader within " + within);
    }

    /** Whether any process of this machine has {@code text} in its command line (the hosts share its processes). */
    static boolean anyProcessMentions(String text) throws Exception {
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs.filter(q -> q.getFileName().toString().matches("\\d+"))::iterator) {
                try {
                    String cmd = new String(Files.readAllBytes(p.resolve("cmdline"))).replace('\0', ' ');
                    if (cmd.contains(text)) {
                        return true;
                    }
                } catch (java.io.IOException gone) {
                    // exited while listed
                }
            }
        }
        return false;
    }

    /** Every host's iptables rules, from outside the hosts (their namespaces). */
    static String rules() throws Exception {
        StringBuilder all = new StringBuilder();
        for (int id = 1; id <= lab.hosts().size(); id++) {
            all.append(lab.netns().exec(id, List.of("iptables", "-w", "5", "-S")));
        }
        return all.toString();
    }

    /** A node's ctime is the leader's System.currentTimeMillis: the library uploaded to its host moves it. */
    private static void clocksMove(SshEnsemble zk) throws Exception {
        ServerNode leader = leader(zk, Duration.ofSeconds(10));
        try (org.apache.zookeeper.ZooKeeper c = io.lockchaos.zookeeper.ZooKeepers.connect(leader.clientAddress(), 4_000,
                Duration.ofSeconds(10))) {
            assertEquals(0, io.lockchaos.cluster.ServerClockProbe.minutesAhead(c, "/before"));
            zk.shiftClock(leader, 3_600_000);
            assertEquals(60, io.lockchaos.cluster.ServerClockProbe.minutesAhead(c, "/ahead"));
            assertEquals(3_600_000, zk.clockOffset(leader));
            zk.shiftClock(leader, -120_000);
            assertEquals(-2, io.lockchaos.cluster.ServerClockProbe.minutesAhead(c, "/behind"));
            zk.shiftClock(leader, 0);
            assertEquals(0, io.lockchaos.cluster.ServerClockProbe.minutesAhead(c, "/back"));
        }
    }

    @Test
    void serversRunOnTheHostsTakeEveryFaultAndLeaveNothing() throws Exception {
        SshEnsemble zk = SshEnsemble.builder(dir).hosts(lab.hosts()).options(lab.options()).clockShift(true).build();
        String run;
        String folder;
        try (zk) {
            zk.start();
            zk.awaitHealthy(Duration.ofSeconds(60));
            run = zk.runId();
            clocksMove(zk);
            folder = zk.hostRun(1).dir();
            assertTrue(Files.isDirectory(Path.of(folder, "cp")), folder);
            assertTrue(anyProcessMentions(folder + "/zoo.cfg"), "server 1 runs from its run folder");
            for (ServerNode n : zk.nodes()) {
                assertEquals(lab.hosts().get(n.id() - 1) + ":2181", n.clientAddress());
            }

            // kill -9 of the leader: another is elected; the killed one rejoins on restart
            ServerNode first = leader(zk, Duration.ofSeconds(10));
            zk.kill(first);
            assertEquals("down", modeSoon(first, "down"));
            ServerNode second = leader(zk, Duration.ofSeconds(30));
            assertNotEquals(first.id(), second.id());
            zk.restart(first);
            zk.awaitHealthy(Duration.ofSeconds(60));

            // SIGSTOP of a follower: it stops answering, and answers again after SIGCONT
            ServerNode follower = zk.nodes().stream().filter(n -> mode(n).equals("follower")).findFirst().orElseThrow();
            zk.pause(follower);
            assertEquals("down", modeSoon(follower, "down"));
            zk.resume(follower);
            zk.awaitHealthy(Duration.ofSeconds(30));

            // iptables on the hosts: the isolated leader loses its leadership; heal removes exactly the run's rules
            lab.netns().exec(1, List.of("iptables", "-w", "5", "-A", "INPUT", "-s", "192.0.2.1", "-m", "comment",
                    "--comment", "not-ours", "-j", "DROP"));
            IptablesPartitioner cuts = new IptablesPartitioner(zk.namespaces());
            ServerNode isolated = leader(zk, Duration.ofSeconds(10));
            for (ServerNode peer : zk.nodes()) {
                if (peer.id() != isolated.id()) {
                    cuts.cutOneWay(isolated, peer, "lockchaos-1");
                    cuts.cutOneWay(peer, isolated, "lockchaos-1");
                }
            }
            assertTrue(rules().contains("lockchaos." + run + ".lockchaos-1"), rules());
            ServerNode elected = leader(zk, Duration.ofSeconds(30));
            while (elected.id() == isolated.id()) {
                Thread.sleep(100);
                elected = leader(zk, Duration.ofSeconds(30));
            }
            cuts.heal();
            assertFalse(rules().contains("lockchaos."), rules());
            assertTrue(rules().contains("not-ours"), "a rule the run did not add stays");
            lab.netns().exec(1, List.of("iptables", "-w", "5", "-D", "INPUT", "-s", "192.0.2.1", "-m", "comment",
                    "--comment", "not-ours", "-j", "DROP"));
            zk.awaitHealthy(Duration.ofSeconds(60));

            cuts.cutOneWay(zk.nodes().get(0), zk.nodes().get(1), "lockchaos-2");
            assertTrue(rules().contains("lockchaos-2"), "a cut left for close");
        }
        assertFalse(anyProcessMentions(run), "a process of the run is left");
        assertFalse(rules().contains("lockchaos."), "a rule of the run is left: " + rules());
        for (String h : lab.hosts()) {
            assertFalse(Files.exists(Path.of(HostRun.base(LAB_UID, h))), "the run's folders on " + h);
        }
        String log = Files.readString(zk.nodes().get(0).logFile());
        assertTrue(log.contains("ZooKeeper") || log.contains("zookeeper"), "server 1's log was copied back");
    }

    @Test
    void aFailedRunSaysWhyAndLeavesNothing() throws Exception {
        // a configuration the servers refuse: they exit, the start is reported with the host's last log line
        SshEnsemble zk = SshEnsemble.builder(dir).hosts(lab.hosts()).options(lab.options())
                .config("syncLimit", "not-a-number").build();
        String run;
        try (zk) {
            zk.start();
            run = zk.runId();
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> zk.awaitHealthy(Duration.ofSeconds(30)));
            assertTrue(e.getMessage().matches("server \\d on [0-9.]+ exited with code \\d+.*"), e.getMessage());
        }
        assertFalse(anyProcessMentions(run), "a process of the failed run is left");
        for (String h : lab.hosts()) {
            assertFalse(Files.exists(Path.of(HostRun.base(LAB_UID, h))), "the failed run's folder on " + h);
        }
    }

    @Test
    void aKilledRunnerLeavesNothingOnAnyHost() throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), SshHolder.class.getName(),
                lab.options().key().toString(), lab.options().knownHosts().toString(), dir.toString()));
        cmd.addAll(lab.hosts());
        Process holder = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String run = null;
        String agentListen = null;
        try (var out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream()))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("ready ")) {
                    String[] ready = line.substring(6).trim().split(" ");
                    run = ready[0];
                    agentListen = "--listen " + lab.hosts().get(0) + ":0";
                    break;
                }
            }
            assertTrue(run != null, "the holder did not get ready");
            assertTrue(anyProcessMentions(run), "its servers run");
            assertTrue(anyProcessMentions(agentListen), "its client agent runs");
            assertTrue(rules().contains("lockchaos." + run + "."), "its cut is in force");
            holder.destroyForcibly(); // SIGKILL: no hook, no close
            holder.waitFor(10, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + 20_000_000_000L;
            String finalRun = run;
            String finalAgent = agentListen;
            java.util.function.BooleanSupplier clean = () -> {
                try {
                    return !anyProcessMentions(finalRun) && !anyProcessMentions(finalAgent) && !rules().contains("lockchaos." + finalRun + ".")
                            && lab.hosts().stream().noneMatch(h -> Files.exists(Path.of(HostRun.base(LAB_UID, h))));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            while (!clean.getAsBoolean() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertFalse(anyProcessMentions(run), "a process of the killed run is left");
            assertFalse(anyProcessMentions(agentListen), "the killed run's client agent is left");
            assertFalse(rules().contains("lockchaos." + run + "."), "a rule of the killed run is left: " + rules());
            for (String h : lab.hosts()) {
                assertFalse(Files.exists(Path.of(HostRun.base(LAB_UID, h))), "the killed run's folders on " + h);
            }
        } finally {
            holder.destroyForcibly();
        }
    }

    @Test
    void aRunWhoseKeeperIsGoneIsSweptByTheNext() throws Exception {
        // what a keeper that could not finish leaves (a host that rebooted, a keeper killed): a folder, a pid, a rule
        String host = lab.hosts().get(0);
        String stale = "rstale-1";
        Path folder = Path.of(HostRun.base(LAB_UID, host), stale);
        var private700 = java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        for (Path p : List.of(folder.getParent().getParent(), folder.getParent(), folder)) {
            if (!Files.isDirectory(p)) {
                Files.createDirectory(p, private700); // as a run makes them: the next run checks them
            }
        }
        // a folder of another user there (only root could have put it) is never the sweep's to undo
        Path others = Files.createDirectory(folder.resolveSibling("rother-1"), private700);
        Files.setAttribute(others, "unix:uid", 65_534, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        Files.setLastModifiedTime(others, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()
                - 3_600_000)); // old enough to be swept, were it the login user's
        Files.writeString(folder.resolve("keeper.sh"), HostRun.KEEPER);
        Files.writeString(folder.resolve("keeper"), "999999999 1\n");
        Process sleeper = new ProcessBuilder("sleep", "300").start();
        String start = Files.readString(Path.of("/proc/" + sleeper.pid() + "/stat"));
        start = start.substring(start.lastIndexOf(')') + 2).split(" ")[19];
        Files.writeString(folder.resolve("pids"), sleeper.pid() + " " + start + "\n");
        lab.netns().exec(1, List.of("iptables", "-w", "5", "-A", "INPUT", "-s", "192.0.2.7", "-m", "comment",
                "--comment", "lockchaos." + stale + ".lockchaos-3", "-j", "DROP"));
        var client = SshHost.client(lab.options());
        try (SshHost h = SshHost.connect(client, lab.options(), host)) {
            HostRun r = HostRun.begin(h, "rnext-1");
            try (r) {
                assertFalse(Files.exists(folder), "the stale run's folder is gone");
                assertTrue(Files.isDirectory(others), "another user's folder is left alone");
                assertTrue(sleeper.waitFor(5, TimeUnit.SECONDS), "its process was killed");
                assertFalse(rules().contains(stale), "its rule is gone: " + rules());
                assertTrue(Files.exists(Path.of(r.dir(), "keeper")), "the new run keeps its own");
            }
            assertFalse(Files.exists(Path.of(r.dir())), "closing the run removes its folder");
        } finally {
            Files.deleteIfExists(others);
            for (Path p : List.of(folder.getParent(), folder.getParent().getParent())) {
                try {
                    Files.deleteIfExists(p); // the keeper left them for the folder above: the other tests look
                } catch (java.nio.file.DirectoryNotEmptyException inUse) {
                    // another run's
                }
            }
            sleeper.destroyForcibly();
            client.stop();
        }
    }

    @Test
    void hostKeysAreCheckedAndRecordedOnlyWhenAsked() throws Exception {
        String host = lab.hosts().get(1);
        Path empty = dir.resolve("known_hosts");
        Files.writeString(empty, "");
        SshOptions strict = new SshOptions("root", lab.options().key(), 22, empty, false);
        var client = SshHost.client(strict);
        try {
            java.io.IOException unknown = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> SshHost.connect(client, strict, host));
            assertTrue(unknown.getMessage().startsWith("host " + host + ": its key (SHA256:"), unknown.getMessage());
            assertTrue(unknown.getMessage().contains("is not in " + empty), unknown.getMessage());
            assertFalse(unknown.getMessage().contains("\n"), "one line");
        } finally {
            client.stop();
        }

        SshOptions acceptNew = new SshOptions("root", lab.options().key(), 22, empty, true);
        var recording = SshHost.client(acceptNew);
        try (SshHost h = SshHost.connect(recording, acceptNew, host)) {
            assertEquals("ok\n", h.run(List.of("echo", "ok")));
        } finally {
            recording.stop();
        }
        assertTrue(Files.readString(empty).contains(host), "recorded on first contact: " + Files.readString(empty));

        // the host's key changes (here: the record says another key): refused, with or without accept-new
        String other = Files.readString(lab.dir().resolve("id_ecdsa.pub")).trim().split(" ")[1];
        Files.writeString(empty, host + " ecdsa-sha2-nistp256 " + other + "\n");
        var changed = SshHost.client(acceptNew);
        try {
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> SshHost.connect(changed, acceptNew, host));
            assertTrue(e.getMessage().contains("its key changed"), e.getMessage());
        } finally {
            changed.stop();
        }
    }

    @Test
    void argumentsReachTheHostAsTheyAre() throws Exception {
        var client = SshHost.client(lab.options());
        try (SshHost h = SshHost.connect(client, lab.options(), lab.hosts().get(2))) {
            List<String> odd = List.of("a b", "it's", "$HOME", "`id`", "*", "\"q\"", "semi;colon", "");
            List<String> argv = new java.util.ArrayList<>(List.of("printf", "[%s]"));
            argv.addAll(odd);
            assertEquals("[a b][it's][$HOME][`id`][*][\"q\"][semi;colon][]", h.run(argv));
            java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                    () -> h.run(List.of("sh", "-c", "echo why >&2; exit 3")));
            assertEquals("host " + lab.hosts().get(2) + ": sh -c echo why >&2; exit 3: exit 3: why", e.getMessage());
            assertEquals("", h.run(List.of("true")), "an empty output stays empty");
            assertEquals("no newline", h.run(List.of("printf", "no newline")));
        } finally {
            client.stop();
        }
    }
}
