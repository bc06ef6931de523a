package io.lockchaos.api.testlocks;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.support.CloseableClient;
import io.etcd.jetcd.support.Observers;
import io.lockchaos.api.Backend;
import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.api.LockFactory;
import io.lockchaos.api.Promises;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A user's etcd lock written the way Jepsen's etcd client uses the Lock API: a lease kept alive by jetcd's own
 * keep-alive stream, and nothing that ever asks whether the lease still lives. Cut off from the cluster past its TTL,
 * the holder goes on as the holder while etcd, its lease expired, grants the lock to another: Jepsen's partition
 * finding. Runs in a client agent; the user's classpath brings jetcd.
 */
public final class EtcdIgnoringLease implements LockFactory {
    @Override
    public Promises promises() {
        return Promises.exclusive().withOwnerOnlyRelease().withLease();
    }

    @Override
    public Backend backend() {
        return Backend.ETCD;
    }

    @Override
    public LockClient open(LockContext ctx) throws Exception {
        Client c = Client.builder().endpoints(ctx.endpoints().stream().map(e -> "http://" + e).toArray(String[]::new))
                .build();
        c.getKVClient().get(ByteSequence.from("/warm-up", StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS);
        Holder h = new Holder(c, ctx.key(), Math.max(2, ctx.lease().toSeconds()));
        ctx.session(() -> h.lease, () -> null);
        return h;
    }

    private static final class Holder implements LockClient {
        private final Client c;
        private final ByteSequence name;
        private final long ttl;
        private volatile long lease;
        private ByteSequence key;
        private CloseableClient keepAlive;

        Holder(Client c, String name, long ttl) {
            this.c = c;
            this.name = ByteSequence.from(name, StandardCharsets.UTF_8);
            this.ttl = ttl;
        }

        @Override
        public Grant acquire(Duration timeout) throws Exception {
            lease = c.getLeaseClient().grant(ttl).get(5, TimeUnit.SECONDS).getID();
            keepAlive = c.getLeaseClient().keepAlive(lease, Observers.observer(r -> { }));
            try {
                key = c.getLockClient().lock(name, lease).get(timeout.toMillis(), TimeUnit.MILLISECONDS).getKey();
            } catch (TimeoutException e) {
                keepAlive.close();
                c.getLeaseClient().revoke(lease).get(5, TimeUnit.SECONDS);
                return null;
            }
            return Grant.of(key.toString(StandardCharsets.UTF_8), -1, lease);
        }

        @Override
        public boolean release() throws Exception {
            keepAlive.close();
            try {
                c.getLockClient().unlock(key).get(5, TimeUnit.SECONDS);
            } finally {
                c.getLeaseClient().revoke(lease);
            }
            return true;
        }

        @Override
        public void close() {
            if (keepAlive != null) {
                keepAlive.close();
            }
            c.close();
        }
    }
}
