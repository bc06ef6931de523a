package io.lockchaos.cli;

import io.lockchaos.cluster.ScratchFolders;
import io.lockchaos.ssh.SshLab;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ssh-lab}: hosts of this machine's own for {@code --cluster ssh} ({@link SshLab}: network namespaces, each
 * running Debian's sshd), so that a user tries the SSH cluster before pointing it at real hosts and the tests drive it
 * as a user does. With a {@code run} command after it, that run gets the lab's hosts, user, key and known-hosts file,
 * and the lab goes when the run ends; without one, it prints them and serves until killed.
 */
@Command(name = "ssh-lab", mixinStandardHelpOptions = true,
        header = "Make SSH hosts on this machine (namespaces running sshd) and run against them.",
        description = {"Makes --hosts network namespaces, each with its own address, iptables and an sshd on port",
            "22, with a key and a known-hosts file made for the lab. 'ssh-lab -- run --cluster ssh ...' runs that",
            "command with --hosts, --ssh-user, --ssh-key and --ssh-known-hosts of the lab added (and an argument",
            "@hosts replaced by the lab's hosts, @host1 to @host5 by one of them: --client-hosts @host1); without a",
            "command the lab prints them and serves until killed. Needs root and Debian's openssh-server."})
final class SshLabCommand implements Callable<Integer> {
    @Option(names = "--hosts", defaultValue = "3", description = "how many hosts: 1, 3 or 5 (default: 3)")
    int hosts;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "a run command, after --")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (hosts != 1 && hosts != 3 && hosts != 5) {
            throw new UserError("--hosts: expected 1, 3 or 5, got " + hosts);
        }
        if (!command.isEmpty() && !command.get(0).equals("run")) {
            throw new UserError("ssh-lab: the command after -- is a run (ssh-lab -- run --cluster ssh ...), got '"
                    + command.get(0) + "'");
        }
        String why = SshLab.unavailable();
        if (why != null) {
            throw new UserError(why);
        }
        Path dir = ScratchFolders.create("lockchaos-ssh-lab-");
        SshLab lab = null;
        try {
            lab = SshLab.create(hosts, dir);
            List<String> flags = List.of("--hosts", String.join(",", lab.hosts()), "--ssh-user", "root",
                    "--ssh-key", lab.options().key().toString(), "--ssh-known-hosts",
                    lab.options().knownHosts().toString());
            System.out.println("ssh-lab: " + hosts + " hosts: " + String.join(" ", flags));
            System.out.flush();
            if (command.isEmpty()) {
                Thread.currentThread().join(); // until killed: the sshds and the namespaces go with this JVM
                return 0;
            }
            List<String> args = new ArrayList<>();
            for (String a : command) {
                // e.g. --client-hosts @hosts, or @host1 for the first alone
                args.add(a.equals("@hosts") ? String.join(",", lab.hosts()) : a.matches("@host[1-5]")
                        && Integer.parseInt(a.substring(5)) <= lab.hosts().size()
                        ? lab.hosts().get(Integer.parseInt(a.substring(5)) - 1) : a);
            }
            args.addAll(flags);
            return Main.run(args.toArray(String[]::new));
        } finally {
            if (lab != null) {
                try {
                    lab.close();
                } catch (java.io.IOException e) {
                    // the run's exit code is the answer; the next start's sweep removes what is left
                    System.err.println("lockchaos: warning: ssh-lab: " + e.getMessage());
                }
            }
            ScratchFolders.delete(dir);
        }
    }
}
