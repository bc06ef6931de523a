package io.lockchaos.agent;

import io.lockchaos.client.Library;
import io.lockchaos.client.LockRecipe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.Exclusion;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.util.artifact.JavaScopes;

/**
 * Finds the jars of one version of Curator ({@code org.apache.curator:curator-recipes:VERSION}, for client agents), of
 * ZooKeeper ({@code org.apache.zookeeper:zookeeper:VERSION}, for servers) or of a lock library a built-in recipe wraps
 * (ShedLock's provider, with the driver it needs beside it), and their runtime dependencies, resolved
 * with Apache Maven Resolver from Maven Central (or {@code LOCKCHAOS_MAVEN_REPO}) into the local repository ({@code
 * maven.repo.local}, else {@code ~/.m2/repository}). The classpath found is cached next to the local repository, so
 * later runs start without asking the network. Logging back-ends are left out (the agent logs nothing; ZooKeeper
 * 3.8's logback would print every debug line, and a server logs through the runner's slf4j-simple).
 */
public final class VersionResolver {
    /** What is resolved: the workload key that names the version, and the artifact at the root. */
    public enum Module {
        CURATOR(new Artifact("curator", "org.apache.curator", "curator-recipes", "5.4.0", "5.0.0..5.9.0", List.of())),
        ZOOKEEPER(new Artifact("zookeeper", "org.apache.zookeeper", "zookeeper", "3.8.4", "3.5.5..3.9.4", List.of()));

        private final Artifact artifact;

        /** The workload key that names a version of it ({@code curator}, {@code zookeeper}). */
        public String key() {
            return artifact.key;
        }

        public Artifact artifact() {
            return artifact;
        }

        Module(Artifact artifact) {
            this.artifact = artifact;
        }
    }

    /**
     * What one resolver resolves: the artifact whose version a run names, and the artifacts (group:artifact:version)
     * resolved beside it at their own fixed versions (a JDBC driver the library leaves to its user).
     *
     * @param key how messages and the cache name it ({@code curator}, {@code shedlock-jdbc})
     * @param example a version to show in an error message
     * @param range a range of versions to show in an error message
     */
    public record Artifact(String key, String group, String artifact, String example, String range,
                           List<String> alongside) {
        public Artifact {
            alongside = List.copyOf(alongside);
        }

        /** What a run resolves for {@code kind}'s library; its cache is named after the recipe. */
        public static Artifact of(LockRecipe.Kind kind) {
            Library l = kind.library();
            return new Artifact(kind.wireName(), l.group(), l.artifact(), l.compiledVersion(), l.range(),
                    l.alongside());
        }
    }

    /** What cannot be resolved: the message is the one line the user sees. */
    public static final class UnresolvableVersion extends Exception {
        public UnresolvableVersion(String message) {
            super(message);
        }
    }

    private static final List<Exclusion> LOGGING = List.of(
            new Exclusion("ch.qos.logback", "*", "*", "*"),
            new Exclusion("log4j", "*", "*", "*"),
            new Exclusion("org.apache.logging.log4j", "*", "*", "*"),
            new Exclusion("org.slf4j", "slf4j-log4j12", "*", "*"),
            new Exclusion("org.slf4j", "slf4j-reload4j", "*", "*"),
            new Exclusion("ch.qos.reload4j", "*", "*", "*"));

    private final Path localRepository;
    private final String remote;
    private final Artifact module;

    public VersionResolver(Path localRepository, String remote) {
        this(localRepository, remote, Module.CURATOR.artifact());
    }

    public VersionResolver(Path localRepository, String remote, Artifact module) {
        this.localRepository = localRepository;
        this.remote = remote;
        this.module = module;
    }

    /**
     * Keeps the resolver's own warnings (about the poms of old dependencies, say) off the console: what matters to a
     * user is whether the version resolved, and that is said in one line either way.
     */
    private static void quiet() {
        for (String logger : List.of("org.apache.maven", "org.eclipse.aether")) {
            String key = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "error");
            }
        }
    }

    /** The resolver of this machine's defaults (see the class comment) for Curator. */
    public static VersionResolver defaults() {
        return defaults(Module.CURATOR);
    }

    /** The resolver of this machine's defaults for {@code module}. */
    public static VersionResolver defaults(Module module) {
        return defaults(module.artifact());
    }

    /** The resolver of this machine's defaults for {@code module}. */
    public static VersionResolver defaults(Artifact module) {
        String local = System.getProperty("maven.repo.local");
        Path repo = local != null && !local.isBlank() ? Path.of(local)
                : Path.of(System.getProperty("user.home"), ".m2", "repository");
        String remote = System.getenv("LOCKCHAOS_MAVEN_REPO");
        return new VersionResolver(repo, remote == null || remote.isBlank()
                ? "https://repo.maven.apache.org/maven2/" : remote, module);
    }

    /** Whether {@code v} looks like a Maven version this resolver may ask for (no paths, no ranges). */
    public static boolean plausible(String v) {
        return v != null && v.matches("[0-9]+(\\.[0-9]+){1,3}([.-][A-Za-z0-9]+)*");
    }

    /**
     * The jars of {@code version} of the module, from the cache when every jar it names is still there.
     *
     * @throws UnresolvableVersion with one line saying what could not be resolved
     */
    public List<Path> classpath(String version) throws UnresolvableVersion {
        if (!plausible(version)) {
            throw new UnresolvableVersion(module.key + ": '" + version + "' is not a version (expected e.g. "
                    + module.example + ")");
        }
        Path cache = localRepository.resolve(".lockchaos").resolve(module.key + "-" + version + ".classpath");
        try {
            if (Files.isRegularFile(cache)) {
                List<Path> cached = new ArrayList<>();
                for (String l : Files.readAllLines(cache, StandardCharsets.UTF_8)) {
                    if (!l.isBlank()) {
                        cached.add(Path.of(l));
                    }
                }
                if (!cached.isEmpty() && cached.stream().allMatch(Files::isRegularFile)) {
                    return cached;
                }
            }
        } catch (IOException e) {
            // resolve again
        }
        List<Path> jars = resolve(version);
        try {
            Files.createDirectories(cache.getParent());
            Path tmp = Files.createTempFile(cache.getParent(), module.key + "-", ".tmp");
            StringBuilder b = new StringBuilder();
            jars.forEach(j -> b.append(j.toAbsolutePath()).append('\n'));
            Files.writeString(tmp, b, StandardCharsets.UTF_8);
            Files.move(tmp, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // no cache: the next run resolves again
        }
        return jars;
    }

    /**
     * The released versions of this module from {@code from} to {@code to}, both included, oldest first, as Maven
     * Central's metadata lists them (qualified versions such as 5.0.0-RC1 left out).
     *
     * @throws UnresolvableVersion when the list cannot be had
     */
    public List<String> versions(String from, String to) throws UnresolvableVersion {
        if (!plausible(from) || !plausible(to)) {
            throw new UnresolvableVersion(module.key + ": expected a range A..B of versions such as "
                    + module.range + ", got " + from + ".." + to);
        }
        quiet();
        RepositorySystem system = new RepositorySystemSupplier().get();
        try (RepositorySystemSession.CloseableSession session = new SessionBuilderSupplier(system).get()
                .withLocalRepositoryBaseDirectories(localRepository).build()) {
            RemoteRepository central = new RemoteRepository.Builder("central", "default", remote).build();
            org.eclipse.aether.resolution.VersionRangeRequest request = new org.eclipse.aether.resolution
                    .VersionRangeRequest(new DefaultArtifact(module.group, module.artifact, "jar",
                    "[" + from + "," + to + "]"), List.of(central), null);
            List<String> out = new ArrayList<>();
            for (org.eclipse.aether.version.Version v : system.resolveVersionRange(session, request).getVersions()) {
                String s = v.toString();
                if (s.matches("[0-9]+(\\.[0-9]+)*")) {
                    out.add(s);
                }
            }
            if (out.isEmpty()) {
                throw new UnresolvableVersion(module.key + ": no released version from " + from + " to " + to + " at "
                        + remote);
            }
            return out;
        } catch (org.eclipse.aether.resolution.VersionRangeResolutionException e) {
            throw new UnresolvableVersion(module.key + ": versions " + from + ".." + to + " cannot be listed from " + remote
                    + " (" + e.getMessage() + ")");
        } finally {
            system.shutdown();
        }
    }

    private List<Path> resolve(String version) throws UnresolvableVersion {
        quiet();
        RepositorySystem system = new RepositorySystemSupplier().get();
        try (RepositorySystemSession.CloseableSession session = new SessionBuilderSupplier(system).get()
                .withLocalRepositoryBaseDirectories(localRepository).build()) {
            RemoteRepository central = new RemoteRepository.Builder("central", "default", remote).build();
            Dependency root = new Dependency(new DefaultArtifact(module.group, module.artifact, "jar", version),
                    JavaScopes.RUNTIME, false, LOGGING);
            CollectRequest collect = new CollectRequest(root, List.of(central));
            for (String beside : module.alongside) {
                collect.addDependency(new Dependency(new DefaultArtifact(beside), JavaScopes.RUNTIME, false, LOGGING));
            }
            List<Path> jars = new ArrayList<>();
            for (ArtifactResult r : system.resolveDependencies(session, new DependencyRequest(collect, null))
                    .getArtifactResults()) {
                if (r.getArtifact() != null && r.getArtifact().getPath() != null) {
                    jars.add(r.getArtifact().getPath());
                }
            }
            if (jars.isEmpty()) {
                throw new UnresolvableVersion(module.key + ": " + version + " resolved to no jars from " + remote);
            }
            return jars;
        } catch (org.eclipse.aether.resolution.DependencyResolutionException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            String why = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
            throw new UnresolvableVersion(module.key + ": version " + version + " cannot be resolved from " + remote
                    + " ("
                    + why.lines().findFirst().orElse(why) + ")");
        } finally {
            system.shutdown();
        }
    }
}
