package io.lockchaos.zookeeper;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog.TxnIterator;
import org.apache.zookeeper.txn.CreateSessionTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.Txn;
import org.apache.zookeeper.txn.TxnHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction log as ZooKeeper's own FileTxnLog writes and reads it, cut and damaged as the disk faults do. */
class TxnLogTest {
    @TempDir
    Path dir;

    private static final long EPOCH = 0x100000000L;

    private Path writeLog() throws IOException {
        File logDir = Files.createDirectories(dir.resolve("version-2")).toFile();
        FileTxnLog log = new FileTxnLog(logDir);
        append(log, 1, ZooDefs.OpCode.createSession, new CreateSessionTxn(4000));
        append(log, 2, ZooDefs.OpCode.create, create("/lockchaos/lock-0/_c_1-lock-0000000001"));
        append(log, 3, ZooDefs.OpCode.create, create("/lockchaos/lock-0/_c_2-lock-0000000002"));
        append(log, 4, ZooDefs.OpCode.delete, new DeleteTxn("/lockchaos/lock-0/_c_1-lock-0000000001"));
        append(log, 5, ZooDefs.OpCode.multi, new MultiTxn(List.of(
                new Txn(ZooDefs.OpCode.create, bytes(create("/lockchaos/a"))),
                new Txn(ZooDefs.OpCode.delete, bytes(new DeleteTxn("/lockchaos/b"))))));
        log.commit();
        log.close();
        return TxnLog.newest(dir).orElseThrow();
    }

    private static CreateTxn create(String path) {
        return new CreateTxn(path, new byte[] {1, 2}, ZooDefs.Ids.OPEN_ACL_UNSAFE, true, 0);
    }

    private static void append(FileTxnLog log, int i, int type, Record txn) throws IOException {
        log.append(new Request(new TxnHeader(7, i, EPOCH + i, 1000L * i, type), txn, null));
    }

    private static byte[] bytes(Record r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        r.serialize(BinaryOutputArchive.getArchive(out), "txn");
        return out.toByteArray();
    }

    /** What ZooKeeper itself reads back from the folder's logs, as zxids; throws what it throws. */
    private List<Long> zooKeeperReads() throws IOException {
        List<Long> zxids = new ArrayList<>();
        try (FileTxnLog log = new FileTxnLog(dir.resolve("version-2").toFile())) {
            TxnIterator it = log.read(0);
            while (it.getHeader() != null) {
                zxids.add(it.getHeader().getZxid());
                if (!it.next()) {
                    break;
                }
            }
            it.close();
        }
        return zxids;
    }

    @Test
    void readsEachTransactionsZxidTypeAndPaths() throws IOException {
        List<TxnLog.Txn> txns = TxnLog.read(writeLog());
        assertEquals(List.of(EPOCH + 1, EPOCH + 2, EPOCH + 3, EPOCH + 4, EPOCH + 5),
                txns.stream().map(TxnLog.Txn::zxid).toList());
        assertEquals(List.of("createSession", "create", "create", "delete", "multi"),
                txns.stream().map(TxnLog.Txn::type).toList());
        assertEquals(List.of(), txns.get(0).paths());
        assertEquals(List.of("/lockchaos/lock-0/_c_2-lock-0000000002"), txns.get(2).paths());
        assertEquals(List.of("/lockchaos/a", "/lockchaos/b"), txns.get(4).paths());
        assertEquals("0x100000003", txns.get(2).zxidHex());
    }

    @Test
    void truncatingLeavesALogZooKeeperReadsWithoutItsLastTransactions() throws IOException {
        Path log = writeLog();
        List<TxnLog.Txn> cut = TxnLog.truncate(log, 2);
        assertEquals(List.of(EPOCH + 4, EPOCH + 5), cut.stream().map(TxnLog.Txn::zxid).toList());
        assertEquals(3, TxnLog.read(log).size());
        assertEquals(List.of(EPOCH + 1, EPOCH + 2, EPOCH + 3), zooKeeperReads());
        assertEquals(3, TxnLog.truncate(log, 100).size(), "more than it has: all of them");
        assertTrue(TxnLog.read(log).isEmpty());
    }

    @Test
    void aCorruptedLastTransactionFailsZooKeepersCrcCheck() throws IOException {
        Path log = writeLog();
        assertEquals(EPOCH + 5, TxnLog.corruptLast(log).orElseThrow().zxid());
        IOException e = assertThrows(IOException.class, this::zooKeeperReads);
        assertTrue(e.getMessage().contains("CRC check failed"), e.getMessage());
    }

    @Test
    void aFileThatIsNotALogIsRefusedAndAnEmptyFolderHasNone() throws IOException {
        assertTrue(TxnLog.newest(dir).isEmpty());
        Path bogus = Files.writeString(dir.resolve("log.1"), "not a log at all");
        IOException e = assertThrows(IOException.class, () -> TxnLog.read(bogus));
        assertEquals(bogus + ": not a ZooKeeper transaction log (no ZKLG header)", e.getMessage());
    }
}
