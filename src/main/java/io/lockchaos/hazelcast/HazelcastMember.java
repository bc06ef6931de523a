package io.lockchaos.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.cp.CPSubsystemConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One Hazelcast member, the main class of a member's JVM (on the resolved Hazelcast release and this class only).
 * Its configuration is given as arguments rather than a file so that nothing in the member's folder can change it:
 * bound to one address, joined to the listed members only (TCP-IP, no multicast, no cloud auto-detection), and never
 * phoning home (Hazelcast posts usage to the internet by default).
 *
 * <p>With CP members, it does what an operator's runbook does after a crash: Hazelcast keeps CP state in memory only,
 * so a restarted member comes back as a plain (AP) member with a new identity, while its old self stays in the CP
 * groups until the automatic removal of missing CP members takes it out; once the CP Subsystem has fewer members than
 * it was configured with, the restarted member promotes itself ({@code promoteToCPMember}).
 *
 * <p>Arguments: {@code HOST PORT MEMBERS CP_MEMBERS SESSION_TTL_S}, MEMBERS as {@code host:port,host:port,...}.
 */
public final class HazelcastMember {
    /** The cluster name a run's members and clients share. */
    public static final String CLUSTER = "lockchaos";

    private HazelcastMember() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: HazelcastMember HOST PORT MEMBERS CP_MEMBERS SESSION_TTL_S");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        List<String> members = Arrays.asList(args[2].split(","));
        int cpMembers = Integer.parseInt(args[3]);
        int ttl = Integer.parseInt(args[4]);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config(host, port, members, cpMembers, ttl));
        System.out.println("lockchaos: member started on " + host + ":" + port);
        if (cpMembers > 0) {
            promoteWhenMissing(hz, cpMembers);
        }
    }

    static Config config(String host, int port, List<String> members, int cpMembers, int ttlSeconds) {
        Config c = new Config();
        c.setClusterName(CLUSTER);
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.socket.bind.any", "false");
        // a member that stops answering is out within seconds, as the run's faults last seconds (default: 60 s)
        c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        c.setProperty("hazelcast.max.no.heartbeat.seconds", "5");
        c.setProperty("hazelcast.merge.first.run.delay.seconds", "5");
        c.setProperty("hazelcast.merge.next.run.delay.seconds", "5");
        c.setProperty("hazelcast.logging.type", "jdk");
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        NetworkConfig n = c.getNetworkConfig();
        n.setPort(port).setPortAutoIncrement(false).setPublicAddress(host + ":" + port);
        n.getInterfaces().setEnabled(true).setInterfaces(List.of(host));
        JoinConfig join = n.getJoin();
        join.getAutoDetectionConfig().setEnabled(false);
        join.getMulticastConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setMembers(members).setConnectionTimeoutSeconds(2);
        CPSubsystemConfig cp = c.getCPSubsystemConfig();
        cp.setCPMemberCount(cpMembers);
        // the unsafe mode keeps its lock's sessions by the same settings
        cp.setSessionHeartbeatIntervalSeconds(1);
        cp.setSessionTimeToLiveSeconds(ttlSeconds);
        if (cpMembers > 0) {
            cp.setGroupSize(cpMembers);
            cp.setMissingCPMemberAutoRemovalSeconds(ttlSeconds);
            cp.getRaftAlgorithmConfig().setLeaderHeartbeatPeriodInMillis(500).setLeaderElectionTimeoutInMillis(2000);
        }
        return c;
    }

    /**
     * Promotes this member into the CP Subsystem whenever it has fewer CP members than configured and this member is
     * not one of them (a restarted member, once its old self was removed). Runs until the JVM is killed.
     */
    private static void promoteWhenMissing(HazelcastInstance hz, int cpMembers) throws InterruptedException {
        CPSubsystemManagementService cp = hz.getCPSubsystem().getCPSubsystemManagementService();
        while (true) {
            TimeUnit.SECONDS.sleep(1);
            try {
                if (!cp.isDiscoveryCompleted() || cp.getLocalCPMember() != null) {
                    continue;
                }
                Collection<CPMember> now = cp.getCPMembers().toCompletableFuture().get(5, TimeUnit.SECONDS);
                Set<UUID> alive = hz.getCluster().getMembers().stream().map(Member::getUuid)
                        .collect(Collectors.toSet());
                if (now.size() < cpMembers && now.stream().allMatch(m -> alive.contains(m.getUuid()))) {
                    cp.promoteToCPMember().toCompletableFuture().get(30, TimeUnit.SECONDS);
                    System.out.println("lockchaos: promoted to a CP member");
                }
            } catch (Exception e) {
                // no majority now, or a promotion already under way: the next round asks again
                System.out.println("lockchaos: promotion not possible now: " + e);
            }
        }
    }
}
