package io.lockchaos.nemesis;

import io.lockchaos.cluster.ServerNode;
import java.io.IOException;

/**
 * Cuts what one server sends to another, and undoes cuts by the tag of the fault that made them. The proxies
 * ({@link ProxyNetwork}) do it with toxics on the per-pair proxies of {@code --cluster local}; {@link
 * IptablesPartitioner} with DROP rules inside the servers' network namespaces ({@code --cluster netns}), as Jepsen does.
 */
public interface Partitioner {
    /** Stops what {@code from} sends to {@code to}, on every port, until {@link #remove} of {@code tag}. */
    void cutOneWay(ServerNode from, ServerNode to, String tag) throws IOException;

    /** Undoes what the fault {@code tag} did; an undo of something already gone is no error. */
    void remove(String tag) throws IOException;

    /** Undoes every cut and every other fault this partitioner applied. */
    void heal() throws IOException;
}
