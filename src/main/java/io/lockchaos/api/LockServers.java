package io.lockchaos.api;

import java.util.List;

/**
 * The servers a lock brings of its own, for a lock service lockchaos has no package for: how to start each one as a
 * program. lockchaos starts every server as a child process (again after a kill, with the same arguments and folder),
 * kills it ({@code SIGKILL}), pauses it ({@code SIGSTOP}), puts the run's proxies between it and every client, with
 * {@code cluster netns} runs each in a network namespace of its own so that cuts between servers reach them, and ends
 * them with the run (also after a {@code SIGKILL} of the runner). A server is up once it accepts TCP connections on
 * its port; a lock whose servers need more before they serve (an election) waits for it in {@link
 * LockFactory#setUp}. What they still hold at the end is the factory's {@link LockFactory#inspect} to say.
 *
 * <p>A factory returns its servers from {@link LockFactory#servers} and says {@link Backend#OWN} from {@link
 * LockFactory#backend}. It is asked in a client agent, on the lock's classpath, once per run: the runner never loads
 * the lock's classes.
 */
public interface LockServers {
    /** How messages and the run's record name the servers ({@code lease-server}). */
    String name();

    /**
     * The program and its arguments that run server {@code slot} in the foreground, listening for clients on {@code
     * slot.host():slot.port()}: an argument array, never a shell line (see {@link ServerSlot#java} for a server in the
     * lock's own jar). Its output goes to {@code server.log} in its folder.
     */
    List<String> command(ServerSlot slot);

    /** The servers' version, which the run records beside the lock's; null when there is none to say. */
    default String version() {
        return null;
    }
}
