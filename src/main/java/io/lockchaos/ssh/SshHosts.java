package io.lockchaos.ssh;

import io.lockchaos.cluster.ServerNamespaces;
import java.io.IOException;
import java.util.List;

/**
 * The hosts of an SSH run as the partitioner sees them: server {@code id} is the {@code id}-th host, its address the
 * name it was given (its peers' packets come from it, and iptables resolves a name there), its commands run as root
 * over SSH. A host is shared with whatever else it runs, so the rules carry the run's comment and only those are
 * removed, and a host's traffic shaping is never touched.
 */
public final class SshHosts implements ServerNamespaces {
    private final List<HostRun> runs;

    public SshHosts(List<HostRun> runs) {
        this.runs = List.copyOf(runs);
    }

    @Override
    public int size() {
        return runs.size();
    }

    @Override
    public String address(int id) {
        return runs.get(id - 1).host().host();
    }

    @Override
    public List<String> inside(int id, List<String> command) {
        throw new UnsupportedOperationException("host " + address(id) + " is reached over SSH: use exec");
    }

    @Override
    public String exec(int id, List<String> command) throws IOException {
        return runs.get(id - 1).host().runAsRoot(command);
    }

    @Override
    public String ruleComment(String tag) {
        return runs.get(0).ruleComment(tag);
    }

    @Override
    public void clearRules(int id) throws IOException {
        runs.get(id - 1).clearRules();
    }
}
