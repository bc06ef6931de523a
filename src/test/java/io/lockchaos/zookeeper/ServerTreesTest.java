package io.lockchaos.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lockchaos.client.LockService.Inspection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerTreesTest {
    private static final ServerTrees.Node HELD = new ServerTrees.Node("/k", "/k/_c_a-lock-0000000007", 0x11L);
    private static final ServerTrees.Node STALE = new ServerTrees.Node("/k", "/k/_c_b-lock-0000000003", 0x22L);
    private static final ServerTrees.Node ENDING = new ServerTrees.Node("/k", "/k/_c_c-lock-0000000008", 0x33L);
    private static final ServerTrees.Node DATA = new ServerTrees.Node("/k", "/k/set", 0L);

    private static Map<String, ServerTrees.Node> tree(ServerTrees.Node... nodes) {
        Map<String, ServerTrees.Node> m = new LinkedHashMap<>();
        for (ServerTrees.Node n : nodes) {
            m.put(n.path(), n);
        }
        return m;
    }

    @Test
    void aNodeOnSomeServersOnlyIsADivergenceAndNotLeft() {
        List<Map<String, ServerTrees.Node>> trees = List.of(tree(HELD, DATA), tree(HELD, DATA),
                tree(HELD, STALE, DATA));
        ServerTrees.Comparison c = ServerTrees.Comparison.of(trees);
        Inspection i = c.inspection(List.of("a:1", "a:2", "a:3"), trees);
        // the data node is no lock node: agreed, but not listed
        assertEquals(List.of(Map.of("key", "/k", "node", HELD.path(), "owner", 0x11L)), i.left());
        assertEquals(1, i.diverged().size());
        assertEquals(Map.of("key", "/k", "node", STALE.path(), "owner", 0x22L, "on", List.of(3), "missing_on",
                List.of(1, 2)), i.diverged().get(0));
        assertEquals(List.of(), i.unread());
    }

    @Test
    void eachServerIsReadUnderTheConnectStringsChroot() {
        assertEquals(List.of("a:1", "b:2", "c:3"), ServerTrees.servers("a:1,b:2,c:3"));
        assertEquals(List.of("a:1/app/x", "b:2/app/x"), ServerTrees.servers("a:1,b:2/app/x"));
    }

    @Test
    void aServerThatCouldNotBeReadIsLeftOutOfTheComparisonAndSaid() {
        List<Map<String, ServerTrees.Node>> trees = new ArrayList<>();
        trees.add(tree(HELD));
        trees.add(null);
        trees.add(tree(HELD));
        Inspection i = ServerTrees.Comparison.of(trees).inspection(List.of("a:1", "a:2", "a:3"), trees);
        assertEquals(1, i.left().size());
        assertEquals(List.of(), i.diverged());
        assertEquals(List.of("server 2 (a:2)"), i.unread());
    }

    @Test
    void onlyADivergenceThatLastsFromOneReadToTheNextIsKept() {
        // between the reads a session's end removed ENDING everywhere: the first read caught it half-way
        ServerTrees.Comparison first = ServerTrees.Comparison.of(List.of(tree(HELD, ENDING), tree(HELD, STALE),
                tree(HELD, STALE, ENDING)));
        assertEquals(2, first.diverged().size());
        ServerTrees.Comparison second = ServerTrees.Comparison.of(List.of(tree(HELD), tree(HELD, STALE),
                tree(HELD, STALE)));
        List<ServerTrees.Divergence> kept = second.lasting(first).diverged();
        assertEquals(1, kept.size());
        assertEquals(STALE, kept.get(0).node());
        assertEquals(List.of(2, 3), List.copyOf(kept.get(0).on()));
    }
}
