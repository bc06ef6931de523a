package io.lockchaos.core;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.client.LockService;
import io.lockchaos.client.LockServices;
import io.lockchaos.cluster.Docker;
import io.lockchaos.cluster.Netns;
import io.lockchaos.ssh.SshOptions;

/**
 * What a run needs from the machine and from its options, checked before anything starts: the one place these
 * checks and their one-line messages live, for the command line, the Scenario API and the runner alike. Each
 * refusal names the key or option at fault and what to do instead.
 */
public final class Preflight {
    private Preflight() {
    }

    /**
     * Checks {@code spec} run against {@code connect} (an existing ensemble's connect string, or null for servers
     * lockchaos starts).
     *
     * @throws IllegalArgumentException with a one-line message, at the first thing missing or contradictory
     */
    public static void check(TestSpec spec, String connect) {
        if (connect != null && spec.number("first_server_id") != 1) {
            throw new IllegalArgumentException("--connect: first_server_id sets the myid of servers lockchaos starts;"
                    + " an existing ensemble has its own");
        }
        if (connect != null && spec.cluster().containerCheckMillis() != -1) {
            throw new IllegalArgumentException("--connect: container_check_ms is a property of the servers lockchaos"
                    + " starts; an ensemble you already have keeps its own");
        }
        LockService service = LockServices.of(spec.recipe());
        serversWithoutConnect(spec, connect);
        String missing = service.missing();
        if (missing != null) {
            throw new IllegalArgumentException(missing);
        }
        if (spec.cluster().containers() && connect == null && !Docker.answers()) {
            throw new IllegalArgumentException(NO_DOCKER);
        }
        String dockerHost = System.getenv("DOCKER_HOST");
        if (spec.cluster().containers() && spec.cutsWithIptables() && dockerHost != null
                && !dockerHost.startsWith("unix://")) {
            throw new IllegalArgumentException("partitioner: iptables enters the containers' namespaces on this"
                    + " machine: it needs a local engine, not DOCKER_HOST=" + dockerHost);
        }
        if (spec.cluster().ssh() && connect == null) {
            SshOptions o = Runner.sshOptions(spec);
            if (o.keyProblem() != null) {
                throw new IllegalArgumentException(o.keyProblem());
            }
            if (!o.acceptNew() && !java.nio.file.Files.isReadable(o.knownHosts())) {
                throw new IllegalArgumentException("ssh_known_hosts: cannot read " + o.knownHosts() + " (give the"
                        + " file with the hosts' keys, or --ssh-accept-new true to record them at first contact)");
            }
        }
        if (spec.cutsWithIptables() && connect == null && !spec.cluster().ssh()) {
            String why = Netns.unavailable();
            if (why != null) {
                throw new IllegalArgumentException(spec.cluster().namespaces() ? why : why.replace("cluster: netns",
                        "partitioner: iptables"));
            }
        }
        String unfetched = connect == null ? service.fetch(TestSpecs.view(spec)) : null;
        if (unfetched != null) {
            throw new IllegalArgumentException(unfetched);
        }
        if (spec.clients().agents()) {
            try {
                VersionResolver.defaults().classpath(spec.clients().curator());
            } catch (VersionResolver.UnresolvableVersion e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }
        LibraryLocks.agentsLock(spec); // a library's release, resolved (and cached) before anything starts
    }

    /** What a container run says when no Docker engine answers. */
    static final String NO_DOCKER = "cluster: container needs Docker, and Docker is not available on this machine"
            + " (use the default cluster: local)";

    /** A Redis, PostgreSQL or etcd recipe starts its own servers: an existing ZooKeeper ensemble has no place in it. */
    static void serversWithoutConnect(TestSpec spec, String connect) {
        if (connect != null && !LockServices.of(spec.recipe()).takesExistingServers()) {
            throw new IllegalArgumentException("--connect: " + spec.recipe().wireName() + " starts its own "
                    + spec.recipe().servers().replace("(s)", "s")
                    + "; --connect names a ZooKeeper ensemble");
        }
    }
}
