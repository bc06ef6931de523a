package io.lockchaos.cluster;

import java.io.IOException;
import java.util.List;

/**
 * The network namespaces an ensemble's servers run in, for cutting them apart inside the kernel: each server's
 * address as its peers see it, and a way to run a command (iptables, tc) in its namespace. {@link Netns} gives them
 * for {@code --cluster netns} ({@code ip netns exec}); {@link ContainerEnsemble#namespaces()} for containers
 * ({@code nsenter} into the container's network namespace, with this machine's iptables).
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
}
