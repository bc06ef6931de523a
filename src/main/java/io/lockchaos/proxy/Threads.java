package io.lockchaos.proxy;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads only: an embedded fault injector must never keep the JVM of a test alive. */
final class Threads {
    private Threads() {
    }

    /** Starts and returns a daemon thread running {@code task}. */
    static Thread start(String name, Runnable task) {
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Returns a factory of daemon threads named {@code prefix-N}. */
    static ThreadFactory daemonFactory(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * Runs {@code task} on a fresh daemon thread and waits for it. Threads that library code creates without choosing
     * their daemon status (the JDK HTTP server's dispatcher) inherit it from their creator, so creating them here
     * makes them daemons too.
     */
    static <T> T callOnDaemon(String name, Callable<T> task) throws Exception {
        FutureTask<T> future = new FutureTask<>(task);
        start(name, future).join();
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }
}
