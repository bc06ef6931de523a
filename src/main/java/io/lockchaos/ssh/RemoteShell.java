package io.lockchaos.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.session.ClientSession;

/**
 * One {@code sh} per host that runs the runner's commands one after another, so that a command costs a round trip
 * instead of a session (the login shell's start-up files, pyenv's and the like, can take half a second; a partition
 * is several iptables commands and must not take seconds). Each command runs with no input; after it the shell prints
 * a token of its own with the exit status on stdout, and the token again on stderr, which end its output.
 */
final class RemoteShell implements AutoCloseable {
    private final ChannelExec channel;
    private final OutputStream in;
    private final InputStream out;
    private final InputStream err;
    private final String token;
    private long seq;

    private RemoteShell(ChannelExec channel, String token) throws IOException {
        this.channel = channel;
        this.in = channel.getInvertedIn();
        this.out = channel.getInvertedOut();
        this.err = channel.getInvertedErr();
        this.token = token;
    }

    static RemoteShell open(ClientSession session, Duration timeout) throws IOException {
        ChannelExec ch = session.createExecChannel("exec /bin/sh");
        ch.open().verify(timeout);
        return new RemoteShell(ch, "__lockchaos_done_"
                + Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36));
    }

    /** The result of one command: its exit status, stdout and stderr. */
    record Result(int status, String out, String err) {
    }

    /** Closes a shell whose command has not answered in time, which ends the read that waits for it. */
    private static final java.util.concurrent.ScheduledExecutorService TIMER = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "lockchaos-ssh-timeouts");
                t.setDaemon(true);
                return t;
            });

    /**
     * Runs {@code line} (already quoted for sh). When the shell does not answer within {@code timeout} it is closed
     * (the command may still run on the host) and the error says so; the host then opens another.
     */
    synchronized Result run(String line, Duration timeout) throws IOException {
        String mark = token + "_" + (++seq);
        String script = "{ " + line + "\n} < /dev/null; printf '\\n%s %d\\n' " + mark + " $?; printf '\\n%s\\n' "
                + mark + " >&2\n";
        boolean[] late = {false};
        java.util.concurrent.ScheduledFuture<?> guard = TIMER.schedule(() -> {
            late[0] = true;
            channel.close(true);
        }, timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            in.write(script.getBytes(StandardCharsets.UTF_8));
            in.flush();
            String o = until(out, "\n" + mark + " ", true);
            String e = until(err, "\n" + mark + "\n", false);
            int at = o.lastIndexOf("\n" + mark + " ");
            int status = Integer.parseInt(o.substring(at + mark.length() + 2).trim());
            return new Result(status, o.substring(0, at), e.substring(0, e.length() - mark.length() - 2));
        } catch (IOException e) {
            channel.close(true);
            throw late[0] ? new IOException("no answer in " + timeout.toSeconds() + " s") : e;
        } finally {
            guard.cancel(false);
        }
    }

    /** Reads {@code s} up to {@code end} (and, for stdout, the rest of that line: the status); returns all read. */
    private static String until(InputStream s, String end, boolean thenLine) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] want = end.getBytes(StandardCharsets.UTF_8);
        byte[] last = new byte[want.length]; // the last bytes read, oldest first
        boolean found = false;
        while (true) {
            int b = s.read();
            if (b < 0) {
                throw new IOException("the host's shell ended");
            }
            buf.write(b);
            if (found) {
                if (b == '\n') {
                    return buf.toString(StandardCharsets.UTF_8);
                }
                continue;
            }
            System.arraycopy(last, 1, last, 0, last.length - 1);
            last[last.length - 1] = (byte) b;
            if (buf.size() >= want.length && java.util.Arrays.equals(last, want)) {
                if (!thenLine) {
                    return buf.toString(StandardCharsets.UTF_8);
                }
                found = true;
            }
        }
    }

    boolean open() {
        return !channel.isClosed();
    }

    @Override
    public void close() {
        channel.close(true);
    }
}
