package io.lockchaos.client;

import java.util.function.Supplier;
import org.apache.zookeeper.ZooKeeper;

/**
 * What the nemesis needs of a client's ZooKeeper session to expire it: its id and password (to end it on the server)
 * and a way to make the client alone believe it expired. The client may live in this JVM (a {@link ZooKeeper} handle)
 * or in a client agent (asked over its socket).
 */
public interface SessionControl {
    /** The current session id, or 0 when the client has none right now. */
    long sessionId();

    /** The current session's password, or null when there is none. */
    byte[] password();

    /** A session's id and password, read together. */
    record Session(long id, byte[] password) {
    }

    /**
     * The session id as last known, without asking anyone: for labelling a fault, where the client may be stopped
     * (a paused agent answers nothing until it resumes).
     */
    default long lastKnownSessionId() {
        return sessionId();
    }

    /** The current session's id and password together (0 and null when there is none). */
    default Session current() {
        return new Session(sessionId(), password());
    }

    /**
     * Makes the client believe its session expired while the server keeps it ({@link ClientSideExpiry}).
     *
     * @return whether the client's event thread was held while the hook ran (false: the client could not reach the
     *     server to park it)
     */
    boolean expireClientSide() throws Exception;

    /**
     * The pid of a process that runs this client and nothing else (a client agent of its own), which a client pause
     * stops whole, as a GC pause would; -1 when the client shares its process (the runner's JVM, a shared agent).
     */
    default long processId() {
        return -1;
    }

    /**
     * The offset file of the clock-shift library the client's process runs under (a client agent started for clock
     * faults): writing it moves the wall clock of every client in that process. Null when its clock cannot move.
     */
    default java.nio.file.Path clockFile() {
        return null;
    }

    /** No session at all. */
    SessionControl NONE = new SessionControl() {
        @Override
        public long sessionId() {
            return 0;
        }

        @Override
        public byte[] password() {
            return null;
        }

        @Override
        public boolean expireClientSide() {
            throw new IllegalStateException("no session");
        }
    };

    /** The session of whichever handle {@code handle} gives at the time of asking (Curator may replace it). */
    static SessionControl of(Supplier<ZooKeeper> handle) {
        return new SessionControl() {
            @Override
            public long sessionId() {
                ZooKeeper zk = handle.get();
                return zk == null ? 0 : zk.getSessionId();
            }

            @Override
            public byte[] password() {
                ZooKeeper zk = handle.get();
                return zk == null ? null : zk.getSessionPasswd();
            }

            @Override
            public Session current() {
                ZooKeeper zk = handle.get(); // one handle for both: Curator may replace it between two reads
                return zk == null ? new Session(0, null) : new Session(zk.getSessionId(), zk.getSessionPasswd());
            }

            @Override
            public boolean expireClientSide() throws InterruptedException {
                ZooKeeper zk = handle.get();
                if (zk == null) {
                    throw new IllegalStateException("no session");
                }
                return ClientSideExpiry.inject(zk);
            }
        };
    }
}
