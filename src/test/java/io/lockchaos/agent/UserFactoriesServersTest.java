package io.lockchaos.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lockchaos.api.Backend;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.LockServers;
import io.lockchaos.api.Promises;
import io.lockchaos.api.ServerSlot;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a factory on its own servers tells the runner from its agent: their name and version, each server's command
 * for the place the runner gave it (port, folder, settings), and one line for each way it can get them wrong.
 */
class UserFactoriesServersTest {
    /** Servers that echo their slot back as their command, so the test sees what reached them. */
    static class Own implements LockFactory {
        LockServers servers = new LockServers() {
            @Override
            public String name() {
                return "echo-server";
            }

            @Override
            public List<String> command(ServerSlot s) {
                return List.of("/bin/echo", s.address(), s.folder().toString(), String.join(",", s.peers()),
                        String.join(":", s.classpath()), s.settings().getOrDefault("durable", "-"));
            }

            @Override
            public String version() {
                return "1.2";
            }
        };

        @Override
        public Promises promises() {
            return Promises.exclusive();
        }

        @Override
        public Backend backend() {
            return Backend.OWN;
        }

        @Override
        public LockServers servers() {
            return servers;
        }

        @Override
        public LockClient open(LockContext context) {
            throw new UnsupportedOperationException();
        }
    }

    private static final String SLOTS = "{\"slots\": [{\"id\": 1, \"host\": \"127.0.0.1\", \"port\": 7001, \"folder\":"
            + " \"/s/server-1\", \"peers\": [\"127.0.0.1:7001\", \"127.0.0.1:7002\"], \"classpath\": [\"/l/a.jar\"],"
            + " \"settings\": {\"durable\": true}}, {\"id\": 2, \"host\": \"127.0.0.1\", \"port\": 7002, \"folder\":"
            + " \"/s/server-2\", \"peers\": [\"127.0.0.1:7001\", \"127.0.0.1:7002\"], \"classpath\": [\"/l/a.jar\"],"
            + " \"settings\": {}}]}";

    @Test
    void eachServersCommandIsMadeForThePlaceTheRunGaveIt() {
        Map<String, Object> said = UserFactories.describe(new Own(), SLOTS);
        assertNull(said.get("error"), String.valueOf(said));
        assertEquals("OWN", said.get("backend"));
        assertEquals("echo-server", said.get("servers"));
        assertEquals("1.2", said.get("servers_version"));
        assertEquals(List.of(List.of("/bin/echo", "127.0.0.1:7001", "/s/server-1", "127.0.0.1:7001,127.0.0.1:7002",
                "/l/a.jar", "true"), List.of("/bin/echo", "127.0.0.1:7002", "/s/server-2",
                "127.0.0.1:7001,127.0.0.1:7002", "/l/a.jar", "-")), said.get("commands"));
        assertNull(UserFactories.describe(new Own(), null).get("commands"), "asked before the servers are placed");
    }

    @Test
    void aFactoryThatGetsItsServersWrongIsToldInOneLine() {
        Own none = new Own();
        none.servers = null;
        assertEquals("lock_class: " + Own.class.getName() + ".servers() returned null, but its backend() is OWN: it"
                + " must say how its servers start", UserFactories.describe(none, null).get("error"));
        Own empty = new Own();
        empty.servers = new LockServers() {
            @Override
            public String name() {
                return "empty";
            }

            @Override
            public List<String> command(ServerSlot slot) {
                return java.util.Arrays.asList("java", null);
            }
        };
        assertEquals("lock_class: " + Own.class.getName() + ".servers().command(1) gave no program to run: [java,"
                + " null]", UserFactories.describe(empty, SLOTS).get("error"));
        Own throwing = new Own();
        throwing.servers = new LockServers() {
            @Override
            public String name() {
                return "throwing";
            }

            @Override
            public List<String> command(ServerSlot slot) {
                throw new IllegalStateException("no binary\nhere");
            }
        };
        assertEquals("lock_class: " + Own.class.getName() + ".servers().command(1) threw"
                + " java.lang.IllegalStateException: no binary here", UserFactories.describe(throwing, SLOTS)
                .get("error"));
    }
}
