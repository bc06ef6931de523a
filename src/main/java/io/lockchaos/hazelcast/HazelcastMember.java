package io.lockchaos.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.cp.CPSubsystemConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPSubsystemManagementService;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Hazelcast member, the main class of a member's JVM (on the resolved Hazelcast release and this class only).
 * Its configuration is given as arguments rather than a file so that nothing in the member's folder can change it:
 * bound to one address, joined to the listed members only (TCP-IP, no multicast, no cloud auto-detection), and never
 * phoning home (Hazelcast posts usage to the internet by default).
 *
 * <p>With CP members, it does what an operator's runbook does after a crash: Hazelcast keeps CP state in memory only,
 * so a restarted member comes back as a plain (AP) member with a new identity, while its old self stays in the CP
 * groups until the automatic removal of missing CP members takes it out; the restarted member promotes itself ({@code
 * promoteToCPMember}) and takes its old self's place.
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
            promoteWhenMissing(hz);
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
     * Promotes this member into the CP Subsystem whenever it is not a CP member (a restarted member: its old self is
     * removed automatically, and the promoted member takes its place in the CP groups). It does not first ask for the
     * CP members: that query went unanswered for seconds at a time after a removal (5 s timeouts, seen in a run whose
     * second kill then left the CP groups without a majority). Runs until the JVM is killed.
     */
    private static void promoteWhenMissing(HazelcastInstance hz) throws InterruptedException {
        CPSubsystemManagementService cp = hz.getCPSubsystem().getCPSubsystemManagementService();
        while (true) {
            TimeUnit.SECONDS.sleep(1);
            try {
                if (!cp.isDiscoveryCompleted() || cp.getLocalCPMember() != null) {
                    continue;
                }
                cp.promoteToCPMember().toCompletableFuture().get(30, TimeUnit.SECONDS);
                System.out.println("lockchaos: promoted to a CP member");
            } catch (Exception e) {
                // a membership change under way, or no majority now: the next round asks again
                System.out.println("lockchaos: promotion not possible now: " + e);
            }
        }
    }
}
