package io.lockchaos.zookeeper;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.jute.Record;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog;
import org.apache.zookeeper.txn.CreateContainerTxn;
import org.apache.zookeeper.txn.CreateTTLTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.SetDataTxn;
import org.apache.zookeeper.txn.TxnHeader;

/**
 * The transaction logs a run's ZooKeeper servers left in its folder ({@code servers/node-N/data/version-2/log.*}),
 * read with ZooKeeper's own log reader and compared: a transaction that every server but some has, inside the range of
 * zxids those servers' own logs cover, is a hole in their logs (ZOOKEEPER-4925's stale follower lacked a block of
 * deletes). A server that synced by snapshot logs nothing before its snapshot, so only its own range is held to the
 * others.
 */
public final class TxnLogs {
    /** One logged transaction: its zxid, its type's name and the path it touched (empty when it names none). */
    public record Txn(long zxid, String type, String path) {
    }

    /**
     * A block of transactions some servers lack: consecutive (in the union of every log) and missing on the same servers.
     *
     * @param missingOn the servers whose logs lack them
     * @param on the servers whose logs have them
     * @param snapshots for a server that lacks them, the first snapshot it took after its last logged transaction
     *     before them, when it took one that reaches them (a SNAP sync: not a hole in its data)
     */
    public record Hole(List<Integer> missingOn, List<Integer> on, List<Txn> txns, Map<Integer, Long> snapshots) {
        /** Whether every server that lacks the block took a snapshot after it, which may hold what it lacks. */
        public boolean coveredBySnapshots() {
            return snapshots.keySet().containsAll(missingOn);
        }
    }

    private final Map<Integer, List<Txn>> logs;
    private final Map<Integer, TreeSet<Long>> snapshots;

    private TxnLogs(Map<Integer, List<Txn>> logs, Map<Integer, TreeSet<Long>> snapshots) {
        this.logs = logs;
        this.snapshots = snapshots;
    }

    /** Each server's log as read, by server id. */
    public Map<Integer, List<Txn>> logs() {
        return logs;
    }

    /**
     * Reads every server's logs under {@code servers} (a run's {@code servers/} folder).
     *
     * @throws IOException naming the server whose log could not be read
     */
    public static TxnLogs read(Path servers) throws IOException {
        Map<Integer, List<Txn>> logs = new TreeMap<>();
        Map<Integer, TreeSet<Long>> snapshots = new TreeMap<>();
        try (Stream<Path> nodes = Files.list(servers)) {
            for (Path node : nodes.filter(p -> p.getFileName().toString().matches("node-[0-9]+")).toList()) {
                Path dir = node.resolve("data").resolve("version-2");
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                int id = Integer.parseInt(node.getFileName().toString().substring("node-".length()));
                try {
                    logs.put(id, read(dir.toFile()));
                    snapshots.put(id, snapshotZxids(dir));
                } catch (IOException | RuntimeException e) {
                    throw new IOException(node + ": its transaction log could not be read: " + e.getMessage(), e);
                }
            }
        }
        return new TxnLogs(logs, snapshots);
    }

    /** The zxids of the snapshots in {@code dir} ({@code snapshot.ZXID}, hexadecimal). */
    private static TreeSet<Long> snapshotZxids(Path dir) throws IOException {
        TreeSet<Long> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(f -> f.getFileName().toString()).filter(n -> n.matches("snapshot\\.[0-9a-f]+"))
                    .forEach(n -> out.add(Long.parseLong(n.substring("snapshot.".length()), 16)));
        }
        return out;
    }

    private static List<Txn> read(File dir) throws IOException {
        Map<Long, Txn> out = new TreeMap<>(); // a log rewritten after a truncation repeats zxids: each counts once
        try (FileTxnLog log = new FileTxnLog(dir); TxnLog.TxnIterator it = log.read(0)) {
            while (it.getHeader() != null) {
                TxnHeader h = it.getHeader();
                out.putIfAbsent(h.getZxid(), new Txn(h.getZxid(), Request.op2String(h.getType()), pathOf(it.getTxn())));
                if (!it.next()) {
                    break;
                }
            }
        }
        return List.copyOf(out.values());
    }

    private static String pathOf(Record txn) {
        if (txn instanceof CreateTxn c) {
            return c.getPath();
        } else if (txn instanceof DeleteTxn d) {
            return d.getPath();
        } else if (txn instanceof SetDataTxn s) {
            return s.getPath();
        } else if (txn instanceof CreateContainerTxn c) {
            return c.getPath();
        } else if (txn instanceof CreateTTLTxn c) {
            return c.getPath();
        }
        return "";
    }

    /** The blocks of transactions that some servers' logs lack within their own range, in zxid order. */
    public List<Hole> holes() {
        Map<Long, Txn> union = new TreeMap<>();
        Map<Integer, TreeSet<Long>> has = new TreeMap<>();
        logs.forEach((id, txns) -> {
            TreeSet<Long> zxids = new TreeSet<>();
            for (Txn t : txns) {
                union.putIfAbsent(t.zxid(), t);
                zxids.add(t.zxid());
            }
            has.put(id, zxids);
        });
        List<Hole> holes = new ArrayList<>();
        List<Integer> lastMissing = null;
        List<Txn> block = new ArrayList<>();
        for (Txn t : union.values()) {
            List<Integer> missing = new ArrayList<>();
            has.forEach((id, zxids) -> {
                if (!zxids.contains(t.zxid()) && !zxids.isEmpty() && zxids.first() < t.zxid()
                        && t.zxid() < zxids.last()) {
                    missing.add(id);
                }
            });
            if (!missing.equals(lastMissing) && !block.isEmpty()) {
                holes.add(hole(lastMissing, block));
                block = new ArrayList<>();
            }
            if (!missing.isEmpty()) {
                block.add(t);
            }
            lastMissing = missing;
        }
        if (!block.isEmpty()) {
            holes.add(hole(lastMissing, block));
        }
        return holes;
    }

    private Hole hole(List<Integer> missing, List<Txn> block) {
        List<Integer> on = new ArrayList<>(logs.keySet());
        on.removeAll(missing);
        on.removeIf(id -> logs.get(id).stream().noneMatch(t -> t.zxid() == block.get(0).zxid()));
        long first = block.get(0).zxid();
        long last = block.get(block.size() - 1).zxid();
        Map<Integer, Long> covering = new TreeMap<>();
        for (int id : missing) {
            long before = logs.get(id).stream().mapToLong(Txn::zxid).filter(z -> z < first).max().orElse(0);
            Long snap = snapshots.getOrDefault(id, new TreeSet<>()).ceiling(before + 1);
            if (snap != null && snap >= last) {
                covering.put(id, snap);
            }
        }
        return new Hole(List.copyOf(missing), List.copyOf(on), List.copyOf(block), covering);
    }

    /** The report's lines: each server's log, then each hole (or that there is none). */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        logs.forEach((id, txns) -> out.add("server " + id + ": " + txns.size() + " transactions" + (txns.isEmpty() ? ""
                : ", 0x" + Long.toHexString(txns.get(0).zxid()) + " to 0x"
                + Long.toHexString(txns.get(txns.size() - 1).zxid()))));
        List<Hole> holes = holes();
        if (holes.isEmpty()) {
            out.add("no holes: within its own range, every server's log has every transaction the others logged");
        }
        for (Hole h : holes) {
            Map<String, Integer> types = new LinkedHashMap<>();
            h.txns().forEach(t -> types.merge(t.type(), 1, Integer::sum));
            StringBuilder snaps = new StringBuilder();
            h.snapshots().forEach((id, z) -> snaps.append(snaps.length() == 0 ? "" : ", ").append("server ").append(id)
                    .append("'s snapshot.").append(Long.toHexString(z)));
            out.add("hole: server(s) " + h.missingOn() + " lack " + h.txns().size() + " transaction(s) that " + h.on()
                    + " logged, 0x" + Long.toHexString(h.txns().get(0).zxid()) + " to 0x"
                    + Long.toHexString(h.txns().get(h.txns().size() - 1).zxid()) + ": " + types
                    + (snaps.length() == 0 ? "" : h.coveredBySnapshots() ? " (a snapshot taken after it may hold them: "
                    + snaps + ")" : " (" + snaps + " taken after it)"));
        }
        return out;
    }
}
