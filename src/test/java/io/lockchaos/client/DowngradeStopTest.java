package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.workload.Cycle;
import io.lockchaos.workload.Generators;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer blocked in its downgrade's read acquire when its connection is suspended: under stop-on-suspended its
 * write hold ends there in the history (a REVOKED state), since it cannot release until the acquire returns; the
 * write lock is let go unrecorded and the read lock, granted later, is a hold of its own.
 */
class DowngradeStopTest {
    @TempDir
    Path dir;

    @Test
    void theWriteHoldEndsAtTheSuspensionNotAtTheLateRelease() throws Exception {
        Path file = dir.resolve("h.jsonl");
        AtomicInteger writeReleases = new AtomicInteger();
        LockWorker[] self = new LockWorker[1];
        LockClient writer = new LockClient() {
            @Override
            public Grant acquire(Duration timeout) {
                return Grant.session("/k/write-1", 7);
            }

            @Override
            public boolean release() {
                writeReleases.incrementAndGet();
                return true;
            }

            @Override
            public void close() {
            }

            @Override
            public LockClient readSide() {
                return new LockClient() {
                    @Override
                    public Grant acquire(Duration timeout) {
                        // the connection is suspended while this acquire waits on the servers
                        self[0].onState("SUSPENDED");
                        return Grant.session("/k/read-2", 7);
                    }

                    @Override
                    public boolean release() {
                        return true;
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            self[0] = new LockWorker(rec, "/k", 0, 1, p -> writer, Generators.limit(1, Generators.repeat(
                    Cycle.of(0, 1))), 0).clientMode(ClientMode.STOP_ON_SUSPENDED).mode("write").downgrade(100, 1);
            self[0].run();
        }
        History h = JsonlHistoryReader.read(file);
        List<String> lines = new ArrayList<>();
        for (Op op : h.ops()) {
            String v = op.value() instanceof java.util.Map<?, ?> m && m.get("state") != null ? " " + m.get("state")
                    : op.value() instanceof java.util.Map<?, ?> m && m.get("mode") != null ? " " + m.get("mode") : "";
            lines.add(op.f().wireName() + " " + op.type().name().toLowerCase() + v);
        }
        int revoked = lines.indexOf("state ok REVOKED");
        assertTrue(revoked > lines.indexOf("acquire invoke read") && revoked < lines.lastIndexOf("acquire ok"),
                "the write hold ends while the read acquire waits: " + lines);
        assertTrue(lines.stream().noneMatch(l -> l.equals("release invoke write")), "no write release: " + lines);
        assertEquals(1, writeReleases.get(), "the write lock is let go all the same");
        assertEquals("release ok", lines.get(lines.size() - 1).replace(" read", ""), lines.toString());
    }
}
