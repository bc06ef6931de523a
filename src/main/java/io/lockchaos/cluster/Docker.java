package io.lockchaos.cluster;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * Whether this machine can run containers, and the rules every container of a run follows: it carries the runner's
 * pid as a label, publishes its ports on 127.0.0.1 only, and is removed by the run itself (on close, by a shutdown
 * hook, or, after a SIGKILL of the runner, by {@link #sweep} at the next start), not by Testcontainers' reaper
 * container (Ryuk), whose image cannot be pulled where there is no registry.
 */
public final class Docker {
    private static final String QUIET = "org.slf4j.simpleLogger.log.org.testcontainers";
    /** The label naming the pid of the runner that made a container or network. */
    public static final String RUNNER_LABEL = "io.lockchaos.runner";
    /** The runner's full identity (boot, pid namespace, pid, start), which the sweep judges by. */
    static final String IDENTITY_LABEL = "io.lockchaos.runner-id";
    /** The images docker/build-images makes from Debian's packages. */
    public static final String LOCAL_JRE = "lockchaos/jre:17";
    public static final String LOCAL_TOXIPROXY = "lockchaos/toxiproxy:dev";
    private static boolean prepared;

    private Docker() {
    }

    /**
     * Whether a Docker engine answers (Testcontainers' {@code isDockerAvailable()}: its usual search of DOCKER_HOST,
     * the Unix socket, ~/.testcontainers.properties and so on). Returns false, never throws, when there is none; on a
     * machine without an engine this takes well under a second, and later calls return at once.
     */
    public static boolean available() {
        // Testcontainers logs a page of errors when it finds no engine; the one-line answer is enough. Set before
        // its first logger exists, and only where the user has not chosen a level.
        if (System.getProperty(QUIET) == null) {
            System.setProperty(QUIET, "off");
        }
        withoutReaper();
        hostOnLoopback();
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Whether an engine answers on the usual local socket (or DOCKER_HOST names another place, which Testcontainers
     * will try), asked without Testcontainers: its first logger would fix where all logging of the run goes before
     * the run has a folder for the clients' log.
     */
    public static boolean answers() {
        String host = System.getenv("DOCKER_HOST");
        if (host != null && !host.startsWith("unix://")) {
            return true; // a remote engine: Testcontainers finds out
        }
        Path socket = Path.of(host != null ? host.substring("unix://".length()) : "/var/run/docker.sock");
        try (java.nio.channels.SocketChannel ch = java.nio.channels.SocketChannel.open(
                java.net.UnixDomainSocketAddress.of(socket))) {
            ch.write(java.nio.ByteBuffer.wrap("GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            java.nio.ByteBuffer reply = java.nio.ByteBuffer.allocate(512);
            ch.read(reply);
            return new String(reply.array(), 0, reply.position(), java.nio.charset.StandardCharsets.US_ASCII)
                    .startsWith("HTTP/1.") && new String(reply.array(), 0, reply.position(),
                    java.nio.charset.StandardCharsets.US_ASCII).contains(" 200 ");
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Before the first container of this JVM: replaces Testcontainers' reaper container with its in-JVM one (what
     * {@code TESTCONTAINERS_RYUK_DISABLED=true} does, which it only reads from the environment), then removes what
     * runners killed earlier left behind.
     */
    public static synchronized void prepare() {
        if (prepared) {
            return;
        }
        available();
        sweep();
        prepared = true;
    }

    /** Installs Testcontainers' in-JVM reaper unless a reaper exists already or the user asked for Ryuk. */
    private static synchronized void withoutReaper() {
        if ("false".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))
                || "true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            return; // the user's explicit choice (true: Testcontainers makes the in-JVM reaper itself)
        }
        try {
            Class<?> reaper = Class.forName("org.testcontainers.utility.ResourceReaper");
            java.lang.reflect.Field instance = reaper.getDeclaredField("instance");
            instance.setAccessible(true);
            if (instance.get(null) == null) {
                java.lang.reflect.Constructor<?> hook = Class.forName(
                        "org.testcontainers.utility.JVMHookResourceReaper").getDeclaredConstructor();
                hook.setAccessible(true);
                instance.set(null, hook.newInstance());
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another Testcontainers version: it will try Ryuk, and say so if it cannot be had
        }
    }

    /**
     * Where published ports are reached: 127.0.0.1, where this project publishes them. Testcontainers, when it runs
     * in a container itself (/.dockerenv exists, as on CI machines here), asks the engine for its bridge's gateway
     * (172.17.0.1 on a fresh engine) and waits for ports there, where nothing listens: every container start then
     * times out. Where the bridge reports no gateway it falls back to its default gateway, or starts an alpine
     * container to ask, an image that cannot be pulled without a registry. So both are pinned to 127.0.0.1 before
     * Testcontainers first asks. {@code TESTCONTAINERS_HOST_OVERRIDE}, if set, still wins.
     */
    private static synchronized void hostOnLoopback() {
        if (System.getenv("TESTCONTAINERS_HOST_OVERRIDE") != null) {
            return;
        }
        try {
            Class<?> utils = Class.forName("org.testcontainers.dockerclient.DockerClientConfigUtils");
            java.lang.reflect.Field gateway = utils.getDeclaredField("defaultGateway");
            gateway.setAccessible(true);
            @SuppressWarnings("unchecked")
            java.util.concurrent.atomic.AtomicReference<Object> lazy =
                    (java.util.concurrent.atomic.AtomicReference<Object>) gateway.get(null);
            lazy.compareAndSet(null, java.util.Optional.of("127.0.0.1"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another Testcontainers version: it finds the host its own way
        }
        try {
            // chooses the strategy (how to reach the engine) without asking for the host address yet
            DockerClientFactory.instance().getTransportConfig();
            java.lang.reflect.Field chosen = DockerClientFactory.class.getDeclaredField("strategy");
            chosen.setAccessible(true);
            Object strategy = chosen.get(DockerClientFactory.instance());
            java.lang.reflect.Field address = Class.forName(
                    "org.testcontainers.dockerclient.DockerClientProviderStrategy")
                    .getDeclaredField("dockerHostIpAddress");
            address.setAccessible(true);
            if (strategy != null && address.get(strategy) == null && localEngine()) {
                address.set(strategy, "127.0.0.1");
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // no engine (available() says so next) or another Testcontainers version
        }
    }

    /** Whether the engine is reached through a local socket (a tcp engine publishes ports on its own host). */
    private static boolean localEngine() {
        String scheme = DockerClientFactory.instance().getTransportConfig().getDockerHost().getScheme();
        return "unix".equals(scheme) || "npipe".equals(scheme);
    }

    private static DockerClient client() {
        return DockerClientFactory.instance().client();
    }

    /** A new network labelled with this runner's pid. */
    public static Network network() {
        prepare();
        return Network.builder().createNetworkCmdModifier(cmd -> cmd.withLabels(Map.of(RUNNER_LABEL, pid(),
                IDENTITY_LABEL, RunnerIdentity.current())))
                .build();
    }

    /** Labels {@code c} with this runner's pid and publishes its exposed ports on 127.0.0.1 only. */
    public static void confine(GenericContainer<?> c) {
        c.withLabel(RUNNER_LABEL, pid());
        c.withLabel(IDENTITY_LABEL, RunnerIdentity.current());
        c.withCreateContainerCmdModifier(Docker::loopbackOnly);
    }

    /** Every published port bound to 127.0.0.1 (Docker's default is every interface). */
    private static void loopbackOnly(CreateContainerCmd cmd) {
        HostConfig hc = cmd.getHostConfig();
        if (hc == null || hc.getPortBindings() == null) {
            return;
        }
        List<PortBinding> bound = new ArrayList<>();
        for (Map.Entry<ExposedPort, Ports.Binding[]> e : hc.getPortBindings().getBindings().entrySet()) {
            for (Ports.Binding b : e.getValue() == null ? new Ports.Binding[] {Ports.Binding.empty()} : e.getValue()) {
                String spec = b.getHostPortSpec();
                bound.add(new PortBinding(spec == null || spec.isEmpty() ? Ports.Binding.bindIp("127.0.0.1")
                        : Ports.Binding.bindIpAndPort("127.0.0.1", Integer.parseInt(spec)), e.getKey()));
            }
        }
        hc.withPortBindings(bound);
    }

    private static String pid() {
        return Long.toString(ProcessHandle.current().pid());
    }

    /**
     * Removes the containers and networks labelled with the pid of a runner that no longer runs (one killed with
     * SIGKILL: its shutdown hook never ran). Never touches what a live process made or what carries no label of ours.
     * Returns how many were removed.
     */
    public static int sweep() {
        int removed = 0;
        try {
            DockerClient d = client();
            for (Container c : d.listContainersCmd().withShowAll(true).withLabelFilter(List.of(RUNNER_LABEL)).exec()) {
                if (dead(c.getLabels())) {
                    d.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                    removed++;
                }
            }
            for (com.github.dockerjava.api.model.Network n : d.listNetworksCmd().exec()) {
                if (n.getLabels() != null && dead(n.getLabels())) {
                    d.removeNetworkCmd(n.getId()).exec();
                    removed++;
                }
            }
        } catch (RuntimeException e) {
            System.err.println("lockchaos: warning: could not remove the containers of earlier runs: " + e.getMessage());
        }
        return removed;
    }

    /** By the runner's identity where the labels carry it, else (older runs) by the pid. */
    private static boolean dead(Map<String, String> labels) {
        String identity = labels.get(IDENTITY_LABEL);
        return identity != null ? RunnerIdentity.gone(identity) : dead(labels.get(RUNNER_LABEL));
    }

    private static boolean dead(String pid) {
        if (pid == null) {
            return false;
        }
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * {@code local} when the engine has it, else {@code remote} when the engine has it or can pull it within a few
     * seconds.
     *
     * @throws EnvironmentProblem naming both images and how to get one, when neither can be had
     */
    public static String image(String local, String remote) {
        prepare();
        if (present(local)) {
            return local;
        }
        if (present(remote)) {
            return remote;
        }
        // Testcontainers would retry a pull for minutes where no registry answers: try once, briefly, and say what
        // to do instead of waiting
        int colon = remote.lastIndexOf(':');
        try {
            // a registry that answers sends progress: then the pull may take as long as the image needs
            java.util.concurrent.atomic.AtomicBoolean progress = new java.util.concurrent.atomic.AtomicBoolean();
            com.github.dockerjava.api.command.PullImageResultCallback pull =
                    new com.github.dockerjava.api.command.PullImageResultCallback() {
                        @Override
                        public void onNext(com.github.dockerjava.api.model.PullResponseItem item) {
                            progress.set(true);
                            super.onNext(item);
                        }
                    };
            client().pullImageCmd(colon > 0 ? remote.substring(0, colon) : remote)
                    .withTag(colon > 0 ? remote.substring(colon + 1) : "latest").exec(pull);
            boolean done = pull.awaitCompletion(PULL_SECONDS, java.util.concurrent.TimeUnit.SECONDS)
                    || progress.get() && pull.awaitCompletion(10, java.util.concurrent.TimeUnit.MINUTES);
            if (done && present(remote)) {
                return remote;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // no registry, or it refused: said below
        }
        throw new EnvironmentProblem("--cluster container: the image " + local + " is not built and " + remote
                + " could not be pulled (no registry answered within " + PULL_SECONDS + " s); build the images with docker/build-images"
                + " (needs debootstrap and root), or docker pull " + remote + " where a registry can be reached");
    }

    /** How long a registry may take to start answering a pull before the run gives up on it. */
    private static final int PULL_SECONDS = 8;

    private static boolean present(String image) {
        try {
            client().inspectImageCmd(image).exec();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
