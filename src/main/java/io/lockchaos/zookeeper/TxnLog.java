package io.lockchaos.zookeeper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A ZooKeeper server's transaction log file ({@code dataDir/version-2/log.ZXID}), read the way the server writes it
 * (FileTxnLog): a 16-byte header (magic {@code ZKLG}, version, database id), then per transaction its CRC (long),
 * its length (int), the serialized header and record, and the end-of-record byte {@code 'B'}; the file is preallocated
 * in 64 MB steps, so the first length of 0 ends it. This is what the disk faults cut and damage: the last transactions
 * as a power cut loses them when the disk acknowledged writes it had only cached.
 */
public final class TxnLog {
    private static final int HEADER = 16;
    private static final int MAGIC = ByteBuffer.wrap("ZKLG".getBytes(StandardCharsets.US_ASCII)).getInt();

    private TxnLog() {
    }

    /**
     * One transaction: where it starts in the file, its zxid, its type ({@code create}, {@code delete},
     * {@code createSession}, ...), and the paths it touches (empty for session transactions).
     */
    public record Txn(long offset, long end, long zxid, String type, List<String> paths) {
        public String zxidHex() {
            return "0x" + Long.toHexString(zxid);
        }
    }

    /** The newest transaction log in {@code dataDir} (the one with the highest starting zxid), if any. */
    public static Optional<Path> newest(Path dataDir) throws IOException {
        Path dir = dataDir.resolve("version-2");
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("log\\.[0-9a-f]+"))
                    .max(Comparator.comparingLong(p -> Long.parseUnsignedLong(p.getFileName().toString().substring(4),
                            16)));
        }
    }

    /**
     * The transactions of {@code log}, in order, up to the end of what was written (a record cut short at the end, as a
     * crash leaves one, ends the list too).
     *
     * @throws IOException when the file is not a transaction log
     */
    public static List<Txn> read(Path log) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(log));
        if (b.remaining() < HEADER || b.getInt(0) != MAGIC) {
            throw new IOException(log + ": not a ZooKeeper transaction log (no ZKLG header)");
        }
        List<Txn> out = new ArrayList<>();
        b.position(HEADER);
        while (b.remaining() >= 12) {
            long start = b.position();
            b.getLong(); // the CRC
            int len = b.getInt();
            if (len <= 0 || b.remaining() < len + 1) {
                break;
            }
            ByteBuffer txn = b.slice(b.position(), len);
            b.position(b.position() + len + 1);
            out.add(parse(txn, start, b.position()));
        }
        return out;
    }

    private static Txn parse(ByteBuffer t, long start, long end) {
        t.getLong(); // client id
        t.getInt(); // cxid
        long zxid = t.getLong();
        t.getLong(); // time
        int type = t.getInt();
        List<String> paths = new ArrayList<>();
        try {
            if (type == 14) { // multi: a vector of (type, buffer) whose buffers start with their path
                int n = t.getInt();
                for (int i = 0; i < n; i++) {
                    int inner = t.getInt();
                    int size = t.getInt();
                    ByteBuffer data = t.slice(t.position(), Math.max(size, 0));
                    t.position(t.position() + Math.max(size, 0));
                    if (hasPath(inner)) {
                        paths.add(string(data));
                    }
                }
            } else if (hasPath(type)) {
                paths.add(string(t));
            }
        } catch (RuntimeException e) {
            // a record this reader does not know to the end: its zxid and type are still right
        }
        return new Txn(start, end, zxid, org.apache.zookeeper.server.Request.op2String(type), List.copyOf(paths));
    }

    /** Transactions whose record begins with the path: create, delete, setData, create2, containers, TTL nodes. */
    private static boolean hasPath(int type) {
        return type == 1 || type == 2 || type == 5 || type == 15 || type == 19 || type == 20 || type == 21;
    }

    private static String string(ByteBuffer b) {
        int len = b.getInt();
        byte[] bytes = new byte[len];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Cuts the last {@code count} transactions off {@code log} (all of them when it has fewer): the file ends where the
     * first of them began, as after a power cut that lost them. Returns what was cut, oldest first.
     */
    public static List<Txn> truncate(Path log, int count) throws IOException {
        List<Txn> all = read(log);
        List<Txn> cut = List.copyOf(all.subList(Math.max(0, all.size() - count), all.size()));
        if (!cut.isEmpty()) {
            try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
                c.truncate(cut.get(0).offset());
                c.force(true);
            }
        }
        return cut;
    }

    /**
     * Flips every bit of one byte in the middle of the last transaction's record (its CRC no longer matches), as a
     * disk that returned a damaged sector would. Returns that transaction, or empty when the log has none.
     */
    public static Optional<Txn> corruptLast(Path log) throws IOException {
        List<Txn> all = read(log);
        if (all.isEmpty()) {
            return Optional.empty();
        }
        Txn last = all.get(all.size() - 1);
        long at = last.offset() + 12 + (last.end() - 1 - last.offset() - 12) / 2;
        try (FileChannel c = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            c.read(one, at);
            one.put(0, (byte) ~one.get(0));
            one.rewind();
            c.write(one, at);
            c.force(true);
        }
        return Optional.of(last);
    }
}
