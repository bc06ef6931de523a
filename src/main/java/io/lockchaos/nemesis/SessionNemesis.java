package io.lockchaos.nemesis;

import io.lockchaos.client.ClientHandle;
import io.lockchaos.client.SessionControl;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Session expiry. Server-side: a second handle joins the client's session with its id and password and closes it, so
 * the server ends the session and deletes its ephemeral nodes at once (the client finds out when it next talks to the
 * server). Client-side: ZooKeeper's injectSessionExpiration makes the client believe its session expired, while the
 * server keeps it, and its nodes, until the timeout.
 */
final class SessionNemesis implements Nemesis {
    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.EXPIRE, FaultKind.EXPIRE_CLIENT_SIDE);
    }

    /** The client's session id as last known (without asking a client agent that may be paused), or 0. */
    static long sessionOf(ClientHandle c) {
        return c.session().lastKnownSessionId();
    }

    @Override
    public Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        ClientHandle c = ctx.client(fault.target());
        SessionControl sc = c.session();
        SessionControl.Session now = sc.current();
        long session = now.id();
        byte[] password = now.password();
        if (session == 0 || password == null) {
            throw new IllegalStateException("process " + c.process() + " has no session to expire");
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("process", c.process());
        value.put("worker", c.worker());
        if (fault.kind() == FaultKind.EXPIRE) {
            expireOnServer(ctx.cluster().connectString(), session, password,
                    (int) ctx.sessionTimeoutMillis());
            value.put("session", session); // the checkers read "session" as: the server ended it
        } else {
            // whether the client's event thread was held while the hook ran; see ClientSideExpiry
            value.put("event_thread_parked", sc.expireClientSide());
            value.put("client_session", session); // the server did not end it
        }
        return new Started(value, null);
    }

    /**
     * Ends a session on the server: joins it with its id and password, then closes it.
     *
     * @throws IOException when the session could not be joined within the session timeout plus 5 s
     */
    static void expireOnServer(String connect, long session, byte[] password, int timeoutMillis)
            throws IOException, InterruptedException {
        CountDownLatch joined = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(connect, timeoutMillis, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                joined.countDown();
            }
        }, session, password);
        try {
            if (!joined.await(timeoutMillis + 5000L, TimeUnit.MILLISECONDS)) {
                throw new IOException("could not join session 0x" + Long.toHexString(session));
            }
        } finally {
            twin.close();
        }
    }

    @Override
    public void heal(NemesisContext ctx) {
        // an expiry is over once it happened
    }
}
