package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerClasspath;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a ZooKeeper server started by {@link io.lockchaos.zookeeper.server.ChildServer} loads of this JVM's classes. */
final class ServerJars {
    /** Whole packages, so that a class first loaded on an error path is there too. */
    static final List<String> PACKAGES = List.of("io/lockchaos/zookeeper/server/", "io/lockchaos/cluster/",
            "org/apache/zookeeper/", "org/apache/jute/", "org/slf4j/", "com/codahale/metrics/", "org/xerial/snappy/",
            "org/apache/yetus/", "io/netty/", "org/apache/commons/io/", "META-INF/services/", "META-INF/native/");

    /**
     * What a server of another ZooKeeper version needs of the runner's classpath: the launcher (ChildServer and its
     * watchdog) and slf4j with its simple back-end, first on the classpath so that the server logs as ours do (slf4j
     * 2's API serves callers of 1.7's), and the metrics and snappy libraries that ZooKeeper 3.6 and 3.7 declare as
     * provided (their server needs Dropwizard's metrics-core to start: NoClassDefFoundError on
     * com/codahale/metrics/Reservoir without it); ZooKeeper and its other dependencies come from that version's jars.
     */
    static final List<String> LAUNCHER = List.of("io/lockchaos/zookeeper/server/", "io/lockchaos/cluster/",
            "org/slf4j/", "com/codahale/metrics/", "org/xerial/snappy/", "META-INF/services/");

    private ServerJars() {
    }

    /** The entries of {@code classpath} a server needs, with mixed jars replaced by filtered copies. */
    static List<Path> of(List<Path> classpath) {
        return ServerClasspath.of(classpath, PACKAGES);
    }

    /**
     * The classpath of a server of another ZooKeeper version: {@link #LAUNCHER}'s part of {@code classpath}, then
     * {@code zooKeeperJars}.
     */
    static List<Path> launcher(List<Path> classpath, List<Path> zooKeeperJars) {
        List<Path> out = new ArrayList<>(ServerClasspath.of(classpath, LAUNCHER));
        out.addAll(zooKeeperJars);
        return out;
    }

    /** What a server loads of this JVM's classpath, as jar files: what a host reached over SSH is sent. */
    static List<Path> forHosts() throws IOException {
        return ServerClasspath.jars(PACKAGES);
    }
}
