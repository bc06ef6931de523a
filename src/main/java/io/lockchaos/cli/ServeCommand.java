package io.lockchaos.cli;

import io.lockchaos.serve.StoreServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code serve}: browse the store in a web browser until interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        header = "Browse every stored run in a web browser (127.0.0.1 only).",
        description = {"Serves a page listing every run under the store (newest first, with verdict, recipe,"
            + " faults, duration, anomaly kinds and seed; filtered by verdict and test name) and each run's"
            + " timeline, plots, summary, stories and results.json. Binds 127.0.0.1 only; Ctrl-C stops it."})
final class ServeCommand implements Callable<Integer> {
    @Option(names = "--store", defaultValue = "histories", description = "the store to browse (default:"
            + " ${DEFAULT-VALUE})")
    Path store;

    @Option(names = "--port", defaultValue = "8080", description = "the port on 127.0.0.1; 0 picks a free one"
            + " (default: ${DEFAULT-VALUE})")
    int port;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new UserError("--port: expected 0 to 65535, got " + port);
        }
        StoreServer server;
        try {
            server = StoreServer.start(store, port);
        } catch (IOException e) {
            throw new UserError((e.getMessage() != null && e.getMessage().startsWith(store.toString()) ? ""
                    : "--port " + port + ": ") + e.getMessage());
        }
        System.out.println("serving " + store.toAbsolutePath().normalize() + " at " + server.url()
                + " (Ctrl-C stops)");
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "lockchaos-serve-stop"));
        forever.await();
        return 0;
    }
}
