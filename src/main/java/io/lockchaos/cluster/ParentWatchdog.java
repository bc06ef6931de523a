package io.lockchaos.cluster;

/**
 * Halts a child JVM (a ZooKeeper server, a client agent) as soon as the process that started it is gone: the
 * parent-death signal covers a SIGKILLed runner on Linux, this covers the rest (and the JVMs that were started without
 * it). Loads nothing but the JDK, so any child may use it whatever else is on its classpath.
 */
public final class ParentWatchdog {
    private ParentWatchdog() {
    }

    /** Polls {@code parent} every 100 ms and halts this JVM with status 3 when it is gone. */
    public static void start(long parent) {
        Thread watchdog = new Thread(() -> {
            ProcessHandle p = ProcessHandle.of(parent).orElse(null);
            while (p != null && p.isAlive()) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
            Runtime.getRuntime().halt(3);
        }, "lockchaos-parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /**
     * Halts this JVM with status 3 when its standard input ends: a server started over SSH has the runner's
     * connection as its stdin, which ends when the runner closes it or dies (its pid means nothing on that host).
     */
    public static void startOnEndOfInput() {
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is ever sent: only the end matters
                }
            } catch (java.io.IOException e) {
                // a broken pipe is an end too
            }
            Runtime.getRuntime().halt(3);
        }, "lockchaos-input-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
