package io.lockchaos.cluster;

import java.io.IOException;
import java.util.List;

/**
 * The network namespaces an ensemble's servers run in, for cutting them apart inside the kernel: each server's
 * address as its peers see it, and a way to run a command (iptables, tc) in its namespace. {@link Netns} gives them
 * for {@code --cluster netns} ({@code ip netns exec}); {@link ContainerEnsemble#namespaces()} for containers
 * ({@code nsenter} into the container's network namespace, with this machine's iptables); {@code
 * io.lockchaos.ssh.SshHosts} for hosts reached over SSH (a host's own iptables, shared with whatever else it runs).
 */
public interface ServerNamespaces {
    /** The servers, numbered 1..size. */
    int size();

    /** Server {@code id}'s address, the source of what it sends its peers. */
    String address(int id) throws IOException;

    /** {@code command} as run in server {@code id}'s network namespace (an argument array, never a shell line). */
    List<String> inside(int id, List<String> command) throws IOException;

    /** Runs {@code command} in server {@code id}'s namespace and returns its output; a non-zero exit is an error. */
    default String exec(int id, List<String> command) throws IOException {
        return Netns.run(inside(id, command));
    }

    /** The comment on the rules of fault {@code tag}: what {@link #clearRules} finds them by. */
    default String ruleComment(String tag) {
        return tag;
    }

    /**
     * Removes every rule and queue this run's faults put in server {@code id}'s namespace. A namespace of the run's own
     * holds nothing else, so its chains are flushed and its queue removed; a host it shares with others (over SSH)
     * loses only the rules that carry this run's comments.
     */
    default void clearRules(int id) throws IOException {
        exec(id, List.of("iptables", "-w", "5", "-F", "INPUT"));
        exec(id, List.of("iptables", "-w", "5", "-F", "OUTPUT"));
        try {
            exec(id, List.of("tc", "qdisc", "del", "dev", "eth0", "root"));
        } catch (IOException | RuntimeException e) {
            // no queue of ours there: nothing to remove
        }
    }
}
