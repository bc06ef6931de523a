package io.lockchaos.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The part of a classpath that a server started from this JVM's classes loads: the packages its service names (for
 * ZooKeeper: its own launcher, ZooKeeper and jute, slf4j and ZooKeeper's dependencies). A container gets its
 * classpath as a copy through the Docker API, and the runner's whole classpath (the 72 MB shaded jar, or the test
 * JVM's hundred jars) took a minute to copy into three containers; what a server loads is a few megabytes. A jar that
 * holds these packages among others (the shaded jar) is replaced by a filtered copy, written once per JVM into a
 * {@link ScratchFolders scratch folder} that is deleted at exit, or by a later sweep when the JVM was killed or halted
 * (a test JVM's end may skip exit hooks).
 */
public final class ServerClasspath {
    private static final Map<String, Path> FILTERED = new ConcurrentHashMap<>();
    private static Path scratch;

    private ServerClasspath() {
    }

    /**
     * What a server loads of this JVM's classpath ({@code packages}, whole: a class first loaded on an error path is
     * there too) as jar files only, a class folder packed into a jar of its own: the files a host reached over SSH is
     * sent (one upload per file, no folder trees).
     */
    public static List<Path> jars(List<String> packages) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path entry : of(runnerClasspath(), packages)) {
            out.add(Files.isDirectory(entry) ? packed(entry, name -> needed(name, packages)) : entry);
        }
        return out;
    }

    /**
     * This JVM's whole classpath as jar files, each class folder packed into a jar of its own: what a client agent on
     * another host runs on (lockchaos' classes and every client library it is built with).
     */
    public static List<Path> runnerJars() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path entry : runnerClasspath()) {
            out.add(Files.isDirectory(entry) ? packed(entry, name -> true) : entry);
        }
        return out;
    }

    /** This JVM's classpath, each entry an absolute path that exists. */
    public static List<Path> runnerClasspath() {
        List<Path> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty() && Files.exists(Path.of(e))) {
                cp.add(Path.of(e).toAbsolutePath());
            }
        }
        return cp;
    }

    /** A jar, in the scratch folder, of the files of the class folder {@code dir} that {@code keep} names. */
    private static Path packed(Path dir, java.util.function.Predicate<String> keep) throws IOException {
        Path out = Files.createTempFile(scratch(), "classes-", ".jar");
        try (OutputStream file = Files.newOutputStream(out); JarOutputStream jos = new JarOutputStream(file);
             java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                String name = dir.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                if (!keep.test(name) || name.startsWith("META-INF/MANIFEST")) {
                    continue;
                }
                jos.putNextEntry(new JarEntry(name));
                Files.copy(f, jos);
                jos.closeEntry();
            }
        }
        return out;
    }

    /**
     * The entries of {@code classpath} that hold {@code packages} (folder prefixes such as {@code org/apache/jute/}),
     * a jar that holds others too replaced by a filtered copy.
     */
    public static List<Path> of(List<Path> classpath, List<String> packages) {
        List<Path> out = new ArrayList<>();
        for (Path entry : classpath) {
            try {
                if (Files.isDirectory(entry)) {
                    if (packages.stream().anyMatch(p -> !p.startsWith("META-INF")
                            && Files.isDirectory(entry.resolve(p)))) {
                        out.add(entry);
                    }
                } else if (Files.isRegularFile(entry)) {
                    Path kept = filtered(entry, packages);
                    if (kept != null) {
                        out.add(kept);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading classpath entry " + entry + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** The jar itself when all it holds is needed, a filtered copy when some is, null when none is. */
    private static Path filtered(Path jar, List<String> packages) throws IOException {
        int needed = 0;
        int other = 0;
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                JarEntry je = e.nextElement();
                if (je.isDirectory() || !je.getName().endsWith(".class")) {
                    continue;
                }
                if (needed(je.getName(), packages)) {
                    needed++;
                } else {
                    other++;
                }
            }
        }
        if (needed == 0) {
            return null;
        }
        if (other == 0) {
            return jar;
        }
        String key = jar.toAbsolutePath() + "@" + Files.getLastModifiedTime(jar).toMillis() + ":" + Files.size(jar)
                + packages;
        try {
            return FILTERED.computeIfAbsent(key, k -> copy(jar, packages));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static boolean needed(String name, List<String> packages) {
        // resources at the root (simplelogger.properties) configure the server's logging
        return name.indexOf('/') < 0 || packages.stream().anyMatch(name::startsWith);
    }

    /** This JVM's scratch folder for filtered jars, made at first use. */
    private static synchronized Path scratch() throws IOException {
        if (scratch == null) {
            Path dir = ScratchFolders.create("lockchaos-server-classpath-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> ScratchFolders.delete(dir),
                    "lockchaos-server-classpath-cleanup"));
            scratch = dir;
        }
        return scratch;
    }

    private static Path copy(Path jar, List<String> packages) {
        try {
            Path out = Files.createTempFile(scratch(), "server-", ".jar");
            try (JarFile in = new JarFile(jar.toFile());
                    OutputStream file = Files.newOutputStream(out);
                    JarOutputStream jos = new JarOutputStream(file)) {
                for (Enumeration<JarEntry> e = in.entries(); e.hasMoreElements(); ) {
                    JarEntry je = e.nextElement();
                    if (je.isDirectory() || !needed(je.getName(), packages) || je.getName().startsWith("META-INF/MANIFEST")) {
                        continue;
                    }
                    JarEntry copy = new JarEntry(je.getName());
                    copy.setLastModifiedTime(FileTime.fromMillis(je.getTime()));
                    jos.putNextEntry(copy);
                    try (InputStream is = in.getInputStream(je)) {
                        is.transferTo(jos);
                    }
                    jos.closeEntry();
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
