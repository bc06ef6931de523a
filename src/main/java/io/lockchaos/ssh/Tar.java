package io.lockchaos.ssh;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes files as one ustar archive, so that every file a host needs goes in one upload ({@code tar -x} there): each
 * command over SSH costs a session on the host, and the login shell's start-up files can make that most of a second.
 */
final class Tar {
    private static final int BLOCK = 512;

    private Tar() {
    }

    /** Writes {@code files} (name in the archive to local file) to {@code out}, then the end of the archive. */
    static void write(Map<String, Path> files, OutputStream out) throws IOException {
        for (Map.Entry<String, Path> f : files.entrySet()) {
            long size = Files.size(f.getValue());
            out.write(header(f.getKey(), size));
            Files.copy(f.getValue(), out);
            int pad = (int) ((BLOCK - size % BLOCK) % BLOCK);
            out.write(new byte[pad]);
        }
        out.write(new byte[2 * BLOCK]);
        out.flush();
    }

    static byte[] header(String name, long size) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        if (n.length > 99 || !name.matches("[A-Za-z0-9._/-]+")) {
            throw new IllegalArgumentException("tar: name not kept: " + name);
        }
        byte[] h = new byte[BLOCK];
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, 0644);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, System.currentTimeMillis() / 1000);
        h[156] = '0';
        System.arraycopy("ustar\u000000".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 8);
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        byte[] chk = String.format("%06o", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(chk, 0, h, 148, 6);
        h[154] = 0;
        h[155] = ' ';
        return h;
    }

    /** {@code value} in octal, zero-padded to {@code len - 1} digits and a NUL. */
    private static void octal(byte[] h, int at, int len, long value) {
        String s = Long.toOctalString(value);
        if (s.length() > len - 1) {
            throw new IllegalArgumentException("tar: " + value + " does not fit");
        }
        s = "0".repeat(len - 1 - s.length()) + s;
        System.arraycopy(s.getBytes(StandardCharsets.US_ASCII), 0, h, at, len - 1);
    }
}
