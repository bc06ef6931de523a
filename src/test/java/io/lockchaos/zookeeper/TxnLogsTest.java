package io.lockchaos.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.TxnHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The servers' logs, written with ZooKeeper's own log writer and compared: a block only some lack is a hole. */
class TxnLogsTest {
    @TempDir
    Path dir;

    /** Writes server {@code id}'s log: creates at odd zxids, deletes at even ones, all but {@code skipped}. */
    private void log(int id, long last, Set<Long> skipped) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("node-" + id).resolve("data").resolve("version-2"));
        try (FileTxnLog log = new FileTxnLog(logs.toFile())) {
            for (long z = 1; z <= last; z++) {
                if (skipped.contains(z)) {
                    continue;
                }
                boolean create = z % 2 == 1;
                TxnHeader h = new TxnHeader(7, (int) z, z, z, create ? ZooDefs.OpCode.create : ZooDefs.OpCode.delete);
                log.append(new Request(7, (int) z, h.getType(), h, create ? new CreateTxn("/l/n" + z, new byte[0],
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, true, 0) : new DeleteTxn("/l/n" + (z - 1)), z));
            }
            log.commit();
        }
    }

    @Test
    void aBlockOneServerLacksWithinItsRangeIsAHole() throws Exception {
        log(1, 10, Set.of());
        log(2, 10, Set.of());
        log(3, 10, Set.of(4L, 5L, 6L));
        TxnLogs logs = TxnLogs.read(dir);
        assertEquals(List.of(10, 10, 7), logs.logs().values().stream().map(List::size).toList());
        List<TxnLogs.Hole> holes = logs.holes();
        assertEquals(1, holes.size(), holes.toString());
        TxnLogs.Hole h = holes.get(0);
        assertEquals(List.of(3), h.missingOn());
        assertEquals(List.of(1, 2), h.on());
        assertEquals(List.of(4L, 5L, 6L), h.txns().stream().map(TxnLogs.Txn::zxid).toList());
        assertEquals("delete", h.txns().get(0).type());
        assertEquals("/l/n3", h.txns().get(0).path());
        assertFalse(h.coveredBySnapshots());
        assertTrue(logs.lines().get(3).startsWith("hole: server(s) [3] lack 3 transaction(s) that [1, 2] logged, 0x4 to"
                + " 0x6: {delete=2, create=1}"), logs.lines().toString());
    }

    @Test
    void aServerThatStartsLaterOrTookASnapshotOverTheGapHasNoUnexplainedHole() throws Exception {
        log(1, 10, Set.of());
        log(2, 10, Set.of(1L, 2L, 3L)); // synced by snapshot before its log begins: not held to zxids before it
        assertTrue(TxnLogs.read(dir).holes().isEmpty());
        log(3, 10, Set.of(5L, 6L));
        Files.createFile(dir.resolve("node-3/data/version-2/snapshot.6"));
        List<TxnLogs.Hole> holes = TxnLogs.read(dir).holes();
        assertEquals(1, holes.size());
        assertTrue(holes.get(0).coveredBySnapshots(), "server 3's snapshot at 0x6 may hold what its log lacks");
    }
}
