package io.lockchaos.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.lockchaos.client.LockService.Inspection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The final inspection of an etcd run: which lock keys are still there, on which lease, and for how long yet. */
public final class EtcdInspection {
    private EtcdInspection() {
    }

    /** Every key under each lock's prefix, read through the members at {@code addresses} ({@code host:port}). */
    public static Inspection inspect(List<String> addresses, List<String> keys) throws InterruptedException {
        List<Map<String, Object>> left = new ArrayList<>();
        List<Map<String, Object>> expiring = new ArrayList<>();
        try (Client c = Client.builder().endpoints(addresses.stream().map(EtcdServers::url).toArray(String[]::new))
                .build()) {
            for (String key : keys) {
                ByteSequence prefix = ByteSequence.from(key + "/", StandardCharsets.UTF_8);
                List<KeyValue> kvs = c.getKVClient().get(prefix, GetOption.builder().isPrefix(true).build())
                        .get(5, TimeUnit.SECONDS).getKvs();
                for (KeyValue kv : kvs) {
                    Map<String, Object> n = new LinkedHashMap<>();
                    n.put("key", key);
                    n.put("node", kv.getKey().toString(StandardCharsets.UTF_8));
                    n.put("owner", kv.getLease());
                    n.put("create_revision", kv.getCreateRevision());
                    if (kv.getLease() == 0) {
                        left.add(n);
                        continue;
                    }
                    long ttl = c.getLeaseClient().timeToLive(kv.getLease(),
                            io.etcd.jetcd.options.LeaseOption.DEFAULT).get(5, TimeUnit.SECONDS).getTTL();
                    n.put("ttl_ms", ttl * 1000);
                    expiring.add(n);
                }
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // the caller records the inspection as cut short, with this message
            throw new IllegalStateException(e.getCause() != null ? e.getCause().getMessage() : "timed out", e);
        }
        return new Inspection(left, expiring);
    }
}
