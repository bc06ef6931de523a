package io.lockchaos.own;

import static io.lockchaos.core.SpecRefusals.accepted;
import static io.lockchaos.core.SpecRefusals.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.agent.AgentWire;
import io.lockchaos.api.Backend;
import io.lockchaos.client.LockServices;
import io.lockchaos.cluster.ServerNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a run on a lock's own servers takes (here or in namespaces; kills, pauses, client cuts; cuts between servers in
 * namespaces only) and refuses in one line, and where it tells the factory its servers are.
 */
class OwnServiceTest {
    /** A user's lock on its own servers, declared so that nothing is asked of a JVM. */
    private static Map<String, String> own(String... more) {
        Map<String, String> m = new HashMap<>(Map.of("lock_class", "com.example.Lock", "lock_jar",
                "target/test-classes", "lock_promises", "exclusive leased", "lock_backend", "own", "nodes", "1"));
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return m;
    }

    @Test
    void ownServersTakeKillsPausesAndClientCutsAndCutsBetweenThemInNamespaces() throws Exception {
        assertEquals(OwnService.class, LockServices.of(Backend.OWN).getClass(), "registered");
        accepted(own("nemesis", "at 1s kill node:1 for 1s; at 3s pause random for 1s; at 5s isolate-client holder"
                + " for 1s; at 7s pause-client holder for 2s"));
        accepted(own("nodes", "3", "cluster", "netns", "nemesis", "at 1s partition halves for 2s"));
        String cut = refusal(own("nodes", "3", "nemesis", "at 1s partition halves for 2s"));
        assertTrue(cut.contains("a lock's own servers talk to each other directly"), cut);
        assertEquals(1, cut.lines().count(), cut);
        assertTrue(refusal(own("nemesis", "at 1s expire holder")).contains("have no session lockchaos can expire"));
        assertTrue(refusal(own("nemesis", "at 1s kill leader for 1s")).contains("do not say which of them leads"));
        String container = refusal(own("cluster", "container"));
        assertTrue(container.contains("cluster: ") && container.contains("not containers"), container);
        String backend = refusal(own("lock_backend", "mine"));
        assertTrue(backend.contains("lock_backend: expected one of [zookeeper, redis, postgres, etcd, hazelcast,"
                + " own], got 'mine'"), backend);
    }

    @Test
    void theFactoryIsToldEachServersAddressFolderPeersClasspathAndSettings() {
        List<ServerNode> nodes = List.of(new ServerNode(1, "127.0.0.1", 7001, 0, 0, Path.of("/s/server-1"),
                Path.of("/s/server-1/server.log")), new ServerNode(2, "10.1.0.2", 7002, 0, 0, Path.of("/s/server-2"),
                Path.of("/s/server-2/server.log")));
        Map<String, Object> wire = AgentWire.decode(OwnService.slots(nodes, List.of("/l/a.jar", "/l/lib/*"),
                "{\"durable\": true, \"n\": 3}"));
        List<?> slots = (List<?>) wire.get("slots");
        assertEquals(2, slots.size());
        Map<?, ?> second = (Map<?, ?>) slots.get(1);
        assertEquals(2L, second.get("id"));
        assertEquals("10.1.0.2", second.get("host"));
        assertEquals(7002L, second.get("port"));
        assertEquals("/s/server-2", second.get("folder"));
        assertEquals(List.of("127.0.0.1:7001", "10.1.0.2:7002"), second.get("peers"));
        assertEquals(List.of("/l/a.jar", "/l/lib/*"), second.get("classpath"));
        assertEquals(Map.of("durable", true, "n", 3L), second.get("settings"));
        List<?> none = (List<?>) AgentWire.decode(OwnService.slots(nodes, List.of(), "")).get("slots");
        assertEquals(Map.of(), ((Map<?, ?>) none.get(0)).get("settings"), "no lock_settings");
    }
}
