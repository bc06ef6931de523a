package io.lockchaos.zookeeper;

import io.lockchaos.cluster.PortReservations;
import io.lockchaos.zookeeper.server.ChildServer;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a container gets of the classpath: enough for a server, and little else. */
class ServerJarsTest {
    @TempDir
    Path dir;

    @Test
    void aMixedJarIsFilteredToTheServersPackagesAndRootResources() throws Exception {
        Path mixed = jar("mixed.jar", "io/lockchaos/zookeeper/server/ChildServer.class", "io/lockchaos/checker/Verdict.class",
                "org/apache/zookeeper/ZooKeeper.class", "org/postgresql/Driver.class", "simplelogger.properties",
                "META-INF/services/org.slf4j.spi.SLF4JServiceProvider");
        Path onlyServer = jar("zk.jar", "org/apache/zookeeper/server/ZooKeeperServer.class");
        Path unrelated = jar("pg.jar", "org/postgresql/Driver.class");
        List<Path> cp = ServerJars.of(List.of(mixed, onlyServer, unrelated));
        assertEquals(2, cp.size(), cp.toString());
        assertNotEquals(mixed, cp.get(0), "a mixed jar is replaced by a filtered copy");
        assertTrue(cp.get(0).getParent().getFileName().toString().startsWith("lockchaos-server-classpath-"),
                "in a scratch folder that a later sweep removes if this JVM's exit hooks never run: " + cp.get(0));
        assertEquals(onlyServer, cp.get(1), "a jar of only needed classes is kept as it is");
        assertEquals(Set.of("io/lockchaos/zookeeper/server/ChildServer.class", "org/apache/zookeeper/ZooKeeper.class",
                "simplelogger.properties", "META-INF/services/org.slf4j.spi.SLF4JServiceProvider"), names(cp.get(0)));
        assertEquals(cp.get(0), ServerJars.of(List.of(mixed)).get(0), "filtered once per JVM");
    }

    @Test
    void theFilteredTestClasspathStartsAServerAndLeavesTheClientLibrariesOut() throws Exception {
        List<Path> full = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            full.add(Path.of(e));
        }
        List<Path> cp = ServerJars.of(full);
        String joined = cp.toString();
        assertTrue(cp.size() < full.size() / 3, cp.size() + " of " + full.size() + ": " + joined);
        assertFalse(joined.contains("curator-framework") || joined.contains("testcontainers")
                || joined.contains("postgresql"), joined);
        int port = PortReservations.freePort();
        Path data = Files.createDirectories(dir.resolve("data"));
        Path cfg = dir.resolve("zoo.cfg");
        Files.writeString(cfg, "tickTime=200\ninitLimit=10\nsyncLimit=5\ndataDir=" + data + "\nclientPort=" + port
                + "\nclientPortAddress=127.0.0.1\n4lw.commands.whitelist=*\nadmin.enableServer=false\n");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", String.join(File.pathSeparator, cp.stream().map(Path::toString).toList()),
                ChildServer.class.getName(), Long.toString(ProcessHandle.current().pid()), cfg.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        try {
            String answer = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!answer.startsWith("imok") && p.isAlive() && System.nanoTime() < deadline) {
                try {
                    answer = FourLetterWords.send("127.0.0.1", port, "ruok", 500);
                } catch (java.io.IOException notYet) {
                    Thread.sleep(100);
                }
            }
            assertEquals("imok", answer.trim(), "the server answers; its log: "
                    + Files.readString(dir.resolve("server.log"), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Path jar(String name, String... entries) throws Exception {
        Path jar = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
            for (String e : entries) {
                j.putNextEntry(new JarEntry(e));
                j.write(e.getBytes(StandardCharsets.UTF_8));
                j.closeEntry();
            }
        }
        return jar;
    }

    private static Set<String> names(Path jar) throws Exception {
        try (JarFile f = new JarFile(jar.toFile())) {
            Set<String> s = new TreeSet<>();
            f.stream().forEach(e -> s.add(e.getName()));
            return s;
        }
    }
}
