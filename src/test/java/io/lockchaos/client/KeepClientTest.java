package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.workload.Cycle;
import io.lockchaos.workload.Generators;
import io.lockchaos.zookeeper.CuratorSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code after_unknown keep-client}: a last release that throws ends its process either way; the client (its
 * session) is closed and a new one opened, or kept for the next process, as an application keeps its lock client.
 */
class KeepClientTest {
    @TempDir
    Path dir;

    /** A lock whose first client's first release throws, as a release that met a connection loss does. */
    private static final class FirstReleaseThrows implements LockClient {
        private final List<String> events;
        private final int id;
        private boolean thrown;

        FirstReleaseThrows(List<String> events, int id) {
            this.events = events;
            this.id = id;
        }

        @Override
        public Grant acquire(Duration timeout) {
            return Grant.session("/k", 7);
        }

        @Override
        public boolean release() {
            if (id == 0 && !thrown) {
                thrown = true;
                throw new IllegalStateException("ConnectionLoss");
            }
            return true;
        }

        @Override
        public void close() {
            events.add("close " + id);
        }
    }

    private History run(boolean keep, List<String> events) throws Exception {
        Path file = dir.resolve("h" + keep + ".jsonl");
        try (HistoryWriter w = HistoryWriter.create(file)) {
            LockWorker worker = new LockWorker(new Recorder(w), "/k", 0, 1, p -> {
                events.add("open for " + p);
                return new FirstReleaseThrows(events, p);
            }, Generators.limit(2, Generators.repeat(Cycle.of(0, 1))), 0).keepClientAfterUnknown(keep);
            worker.run();
            assertEquals(1, worker.process(), "the unknown release ended process 0 either way");
            assertEquals(keep ? 1 : 0, worker.processOfClient(0), "the first client acts for process 1 if kept");
        }
        return JsonlHistoryReader.read(file); // reading it back checks that process 0 acts no more
    }

    private static List<String> lines(History h) {
        List<String> out = new ArrayList<>();
        for (Op op : h.ops()) {
            out.add(op.process() + " " + op.f().wireName() + " " + op.type().name().toLowerCase());
        }
        return out;
    }

    @Test
    void keptTheClientGoesOnForTheNextProcessUnclosed() throws Exception {
        List<String> events = new ArrayList<>();
        History h = run(true, events);
        assertEquals(List.of("0 acquire invoke", "0 acquire ok", "0 release invoke", "0 release info",
                "1 acquire invoke", "1 acquire ok", "1 release invoke", "1 release ok"), lines(h));
        assertEquals(List.of("open for 0"), events.subList(0, 1));
        assertTrue(events.stream().noneMatch(e -> e.equals("open for 1")), "no second client: " + events);
    }

    @Test
    void retiredTheClientIsClosedAndANewOneOpened() throws Exception {
        List<String> events = new ArrayList<>();
        History h = run(false, events);
        assertEquals("1 acquire ok", lines(h).get(5));
        assertEquals(List.of("open for 0", "close 0", "open for 1"), events.subList(0, 3));
    }

    @Test
    void curatorSettingsTakeTheirDefaultsAndRefuseWhatIsOutOfRange() {
        assertEquals(new CuratorSettings(3, 100, 0), CuratorSettings.of(Map.of()));
        CuratorSettings s = CuratorSettings.of(Map.of("retry_times", "0", "connection_timeout_ms", "200"));
        assertEquals(0, s.retryTimes());
        assertEquals(200, s.connectionTimeoutMillis(1000));
        assertEquals(1000, CuratorSettings.of(Map.of()).connectionTimeoutMillis(1000));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CuratorSettings.of(Map.of("retry_times", "many")));
        assertEquals("lock_settings: retry_times: expected a whole number from 0 to 29, got 'many'", e.getMessage());
    }
}
