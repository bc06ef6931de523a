package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.lockchaos.api.LockClient;
import io.lockchaos.checker.LockHolds;
import io.lockchaos.history.Fn;
import io.lockchaos.history.History;
import io.lockchaos.history.HistoryWriter;
import io.lockchaos.history.JsonlHistoryReader;
import io.lockchaos.history.Op;
import io.lockchaos.history.OpType;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A release is recorded as what the lock found: held (ok), gone (fail not-held), or not said (ok, held unknown). */
class ReleaseOutcomeTest {
    @TempDir
    Path dir;

    @Test
    void eachOutcomeIsRecordedAsItSays() throws Exception {
        Path file = dir.resolve("h.jsonl");
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            for (LockClient.Release r : LockClient.Release.values()) {
                LockWorker.completeRelease(rec, rec.invoke(0, Fn.RELEASE, "/k", null), r);
            }
        }
        History h = JsonlHistoryReader.read(file);
        Op held = h.get(1);
        Op gone = h.get(3);
        Op unknown = h.get(5);
        assertEquals(OpType.OK, held.type());
        assertNull(held.value());
        assertEquals(OpType.FAIL, gone.type());
        assertEquals(LockHolds.NOT_HELD, gone.error());
        assertEquals(OpType.OK, unknown.type());
        assertEquals(Map.of("held", "unknown"), unknown.value());
    }

    @Test
    void aLockThatSaysOnlyTrueOrFalseIsHeldOrGone() throws Exception {
        LockClient yes = new LockClient() {
            @Override
            public io.lockchaos.api.Grant acquire(java.time.Duration timeout) {
                return null;
            }

            @Override
            public boolean release() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        assertEquals(LockClient.Release.HELD, yes.releaseOutcome(() -> { }));
        assertEquals("unknown", LockClient.Release.UNKNOWN.wireName());
        assertEquals(LockClient.Release.GONE, LockClient.Release.parse("gone"));
    }
}
