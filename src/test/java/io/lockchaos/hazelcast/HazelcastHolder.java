package io.lockchaos.hazelcast;

import io.lockchaos.agent.VersionResolver;
import io.lockchaos.client.LockRecipe;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A runner stand-in for {@link HazelcastMembersTest}: starts three Hazelcast members (the unsafe mode, which needs no
 * CP discovery) on the recipe's compiled release, prints their pids, waits to be killed.
 */
public final class HazelcastHolder {
    private HazelcastHolder() {
    }

    public static void main(String[] args) throws Exception {
        HazelcastMembers members = HazelcastMembers.create(Path.of(args[0]), 3, jars(), 0, 2, null);
        members.start();
        members.awaitHealthy(Duration.ofSeconds(60));
        StringBuilder pids = new StringBuilder();
        for (var n : members.nodes()) {
            pids.append(pids.length() == 0 ? "" : " ").append(members.pid(n));
        }
        System.out.println(pids);
        System.out.flush();
        Thread.sleep(120_000);
    }

    static java.util.List<Path> jars() throws VersionResolver.UnresolvableVersion {
        LockRecipe.Kind kind = LockRecipe.Kind.HAZELCAST_FENCED;
        return VersionResolver.defaults(VersionResolver.Artifact.of(kind)).classpath(kind.library()
                .compiledVersion());
    }
}
