package io.lockchaos.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lockchaos.api.Grant;
import io.lockchaos.api.LockClient;
import io.lockchaos.api.LockContext;
import io.lockchaos.checker.Hold;
import io.lockchaos.checker.LockHolds;
import io.lockchaos.checker.Recipe;
import io.lockchaos.history.Fn;
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
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leadership taken away by the library's callback ({@link LockContext#revoked}) ends the worker's hold where it is
 * recorded: the worker neither acts on it nor releases it, and a revocation that overtook its grant on the way to
 * the history is recorded again after the grant.
 */
class RevocationTest {
    @TempDir
    Path dir;

    /** A leader that the library revokes in its {@code n}-th term, when {@code when} says. */
    private static final class Leader implements LockClient {
        private final Consumer<String> revoke;
        private final boolean duringAcquire;
        private volatile boolean leading;
        private int terms;

        Leader(Consumer<String> revoke, boolean duringAcquire) {
            this.revoke = revoke;
            this.duringAcquire = duringAcquire;
        }

        @Override
        public Grant acquire(Duration timeout) {
            terms++;
            leading = true;
            if (terms == 1 && duringAcquire) {
                leading = false; // the callback comes before the grant reaches the history
                revoke.accept("notLeader");
            }
            return Grant.session("/e", 7);
        }

        @Override
        public boolean release() {
            boolean was = leading;
            leading = false;
            return was;
        }

        @Override
        public boolean stillHolds() {
            if (terms == 1 && !duringAcquire && leading) {
                leading = false; // taken away while held: the first look in the hold finds it so
                revoke.accept("notLeader");
            }
            return leading;
        }

        @Override
        public void close() {
        }
    }

    private History run(boolean duringAcquire) throws Exception {
        Path file = dir.resolve("h" + duringAcquire + ".jsonl");
        try (HistoryWriter w = HistoryWriter.create(file)) {
            Recorder rec = new Recorder(w);
            LockWorker[] self = new LockWorker[1];
            // as the runner's sessions do: the worker is told of a revocation before it is recorded
            Consumer<String> revoke = why -> {
                self[0].onState(LockContext.REVOKED);
                rec.state(0, LockContext.REVOKED, 7, why);
            };
            self[0] = new LockWorker(rec, "/e", 0, 1, p -> new Leader(revoke, duringAcquire),
                    Generators.limit(2, Generators.repeat(Cycle.of(1000, 50))), 0);
            self[0].run();
        }
        return JsonlHistoryReader.read(file);
    }

    private static List<String> lines(History h) {
        List<String> out = new ArrayList<>();
        for (Op op : h.ops()) {
            out.add(op.f() == Fn.STATE ? "state " + op.stringField("state")
                    : op.f().wireName() + " " + op.type().name().toLowerCase());
        }
        return out;
    }

    @Test
    void aRevocationWhileHeldEndsTheHoldWithoutARelease() throws Exception {
        History h = run(false);
        assertEquals(List.of("acquire invoke", "acquire ok", "state REVOKED", "acquire invoke", "acquire ok",
                "release invoke", "release ok"), lines(h));
        List<Hold> holds = LockHolds.of(h, Recipe.MUTEX).holds("/e");
        assertEquals(Hold.ReleaseOutcome.REVOKED, holds.get(0).release());
        assertEquals(2, holds.get(0).certain().until(), "the hold ends at the REVOKED state");
        assertEquals(Hold.ReleaseOutcome.RELEASED, holds.get(1).release());
    }

    @Test
    void aRevocationThatOvertookItsGrantIsRecordedAgainAfterIt() throws Exception {
        History h = run(true);
        assertEquals(List.of("acquire invoke", "state REVOKED", "acquire ok", "state REVOKED", "acquire invoke",
                "acquire ok", "release invoke", "release ok"), lines(h));
        assertEquals("revoked before its grant was recorded", h.ops().get(3).stringField("why"));
        List<Hold> holds = LockHolds.of(h, Recipe.MUTEX).holds("/e");
        assertEquals(Hold.ReleaseOutcome.REVOKED, holds.get(0).release());
        assertEquals(3, holds.get(0).certain().until(), "ended by the worker's own REVOKED, after the grant");
    }
}
