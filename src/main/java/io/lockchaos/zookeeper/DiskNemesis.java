package io.lockchaos.zookeeper;

import io.lockchaos.cluster.ServerNode;
import io.lockchaos.fault.Fault;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.nemesis.Nemesis;
import io.lockchaos.nemesis.NemesisContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Jepsen's file faults on ZooKeeper servers this machine runs ({@code cluster local} or {@code netns}): a server is
 * killed, its newest transaction log loses its last transactions ({@code truncate-log}: what a power cut loses when the
 * disk acknowledged writes it had only cached) or gets a damaged byte in its last one ({@code corrupt-log}), and it is
 * started again when the fault ends; or its data folder is copied while it runs and, when the fault ends, it is
 * killed and started on that copy ({@code rollback}: a disk that came back with an older image). The history says
 * which transactions each server lost (zxid, type, paths), and whether it started again: one that refuses its damaged
 * log is a result, recorded, and the run goes on without it.
 */
final class DiskNemesis implements Nemesis {
    /** How long a restarted server has to answer before it is recorded as not started (it may still, later). */
    private static final long START_WAIT_MILLIS = 15_000;

    private final Map<ServerNode, FaultKind> down = new LinkedHashMap<>();
    private final Map<ServerNode, Path> copies = new LinkedHashMap<>();

    @Override
    public Set<FaultKind> kinds() {
        return EnumSet.of(FaultKind.TRUNCATE_LOG, FaultKind.CORRUPT_LOG, FaultKind.ROLLBACK);
    }

    @Override
    public synchronized Started start(Fault fault, long durationMillis, NemesisContext ctx) throws Exception {
        LocalEnsemble local = local(ctx);
        List<ServerNode> targets = ctx.servers(fault.target()).stream()
                .filter(n -> local.running(n) && !down.containsKey(n) && !copies.containsKey(n)).toList();
        if (targets.isEmpty()) {
            throw new IllegalStateException("the servers " + fault.target() + " names are already down");
        }
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("fault", fault.kind().wireName());
        value.put("target", fault.target());
        value.put("nodes", targets.stream().map(ServerNode::id).toList());
        if (fault.kind() == FaultKind.ROLLBACK) {
            Map<String, Object> at = new LinkedHashMap<>();
            for (ServerNode n : targets) {
                Path copy = n.dataDir().resolveSibling("data-rollback");
                deleteTree(copy);
                copyTree(n.dataDir(), copy);
                copies.put(n, copy);
                at.put(Integer.toString(n.id()), "0x" + Long.toHexString(lastZxid(copy)));
            }
            value.put("image_zxid", at);
            return new Started(value, () -> rollBack(local, targets, value));
        }
        int txns = (int) fault.option("txns", 10);
        if (txns < 1 || txns > 100_000) {
            throw new IllegalArgumentException("txns: expected 1 to 100000, got " + txns);
        }
        Map<String, Object> lost = new LinkedHashMap<>();
        for (ServerNode n : targets) {
            local.kill(n);
            down.put(n, fault.kind());
            java.util.Optional<Path> log = TxnLog.newest(n.dataDir());
            List<TxnLog.Txn> hit = log.isEmpty() ? List.of()
                    : fault.kind() == FaultKind.TRUNCATE_LOG ? TxnLog.truncate(log.get(), txns)
                    : TxnLog.corruptLast(log.get()).map(List::of).orElse(List.of());
            lost.put(Integer.toString(n.id()), hit.stream().map(DiskNemesis::describe).toList());
        }
        value.put(fault.kind() == FaultKind.TRUNCATE_LOG ? "truncated" : "corrupted", lost);
        return new Started(value, () -> {
            Map<String, Object> end = new LinkedHashMap<>(value);
            end.putAll(restart(local, targets));
            return end;
        });
    }

    private static LocalEnsemble local(NemesisContext ctx) {
        if (ctx.cluster() instanceof LocalEnsemble l) {
            return l;
        }
        throw new IllegalStateException("disk faults need the servers' data folders on this machine (cluster local"
                + " or netns)");
    }

    private static Map<String, Object> describe(TxnLog.Txn t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zxid", t.zxidHex());
        m.put("type", t.type());
        if (!t.paths().isEmpty()) {
            m.put("paths", t.paths());
        }
        return m;
    }

    private Map<String, Object> rollBack(LocalEnsemble local, List<ServerNode> targets, Map<String, Object> started)
            throws Exception {
        Map<String, Object> end = new LinkedHashMap<>(started);
        Map<String, Object> lost = new LinkedHashMap<>();
        synchronized (this) {
            for (ServerNode n : targets) {
                Path copy = copies.remove(n);
                if (copy == null) {
                    continue;
                }
                local.kill(n);
                down.put(n, FaultKind.ROLLBACK);
                long image = lastZxid(copy);
                lost.put(Integer.toString(n.id()), logs(n.dataDir()).stream().flatMap(l -> read(l).stream())
                        .filter(t -> Long.compareUnsigned(t.zxid(), image) > 0).count());
                deleteTree(n.dataDir());
                Files.move(copy, n.dataDir(), StandardCopyOption.ATOMIC_MOVE);
            }
        }
        end.put("rolled_back_txns", lost);
        end.putAll(restart(local, targets));
        return end;
    }

    /**
     * Starts each server again and waits for each to answer or exit: {@code started} and, for any that exited,
     * {@code refused} with its exit code (ZooKeeper stops on a log it cannot read).
     */
    private Map<String, Object> restart(LocalEnsemble local, List<ServerNode> targets) throws Exception {
        List<ServerNode> mine;
        synchronized (this) {
            mine = targets.stream().filter(down::containsKey).toList();
            mine.forEach(down::remove);
        }
        Exception first = null;
        for (ServerNode n : mine) {
            try {
                local.restart(n);
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        List<Integer> started = new ArrayList<>();
        Map<String, Object> refused = new LinkedHashMap<>();
        long deadline = System.nanoTime() + START_WAIT_MILLIS * 1_000_000;
        for (ServerNode n : mine) {
            while (true) {
                int code = local.exitCode(n);
                if (code >= 0) {
                    refused.put(Integer.toString(n.id()), code);
                    break;
                }
                if (FourLetterWords.mode(n, 500).isPresent() || System.nanoTime() > deadline) {
                    started.add(n.id());
                    break;
                }
                Thread.sleep(100);
            }
        }
        if (first != null) {
            throw first;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("started", started);
        if (!refused.isEmpty()) {
            out.put("refused", refused);
        }
        return out;
    }

    @Override
    public void heal(NemesisContext ctx) throws Exception {
        LocalEnsemble local = ctx.cluster() instanceof LocalEnsemble l ? l : null;
        if (local == null) {
            return;
        }
        List<ServerNode> rolling;
        List<ServerNode> stopped;
        synchronized (this) {
            rolling = List.copyOf(copies.keySet());
            stopped = List.copyOf(down.keySet());
        }
        if (!rolling.isEmpty()) {
            rollBack(local, rolling, Map.of());
        }
        restart(local, stopped);
    }

    private static long lastZxid(Path dataDir) throws IOException {
        long last = 0;
        for (Path l : logs(dataDir)) {
            for (TxnLog.Txn t : TxnLog.read(l)) {
                last = Long.compareUnsigned(t.zxid(), last) > 0 ? t.zxid() : last;
            }
        }
        return last;
    }

    private static List<Path> logs(Path dataDir) throws IOException {
        Path dir = dataDir.resolve("version-2");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("log\\.[0-9a-f]+")).sorted().toList();
        }
    }

    private static List<TxnLog.Txn> read(Path log) {
        try {
            return TxnLog.read(log);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(x);
            }
        }
    }
}
