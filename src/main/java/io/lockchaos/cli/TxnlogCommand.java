package io.lockchaos.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.client.LockServices;
import io.lockchaos.client.ServerLogs;
import io.lockchaos.report.ResultsJson;
import io.lockchaos.store.RunDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code txnlog RUN_DIR}: reads the transaction logs the run's servers left in its folder and compares them, naming
 * each block of transactions some servers lack (what ZOOKEEPER-4925 took ZooKeeper's TxnLogToolkit by hand to see);
 * writes {@code txnlog.json} beside. The run's lock service reads its own servers' logs.
 */
@Command(name = "txnlog", mixinStandardHelpOptions = true,
        header = "Compare the servers' transaction logs of a run.",
        description = {"Reads RUN_DIR/servers/node-N/data/version-2/log.* (the logs of the ZooKeeper servers this",
            "machine ran), prints each server's range of zxids and every block of transactions some servers lack",
            "within their own range (a block a snapshot taken after it may hold is said so), and writes",
            "RUN_DIR/txnlog.json. Exit code: 0 no hole but those, 1 a hole, 2 bad input."})
final class TxnlogCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "a run folder of a ZooKeeper recipe")
    Path run;

    @Override
    public Integer call() throws IOException {
        Path servers = run.resolve("servers");
        Path test = RunDir.of(run).test();
        if (!Files.isDirectory(servers) || !Files.isRegularFile(test)) {
            throw new UserError(run + ": no servers/ folder or test.json: txnlog reads the logs of the servers this"
                    + " machine ran for a run");
        }
        String recipe = new ObjectMapper().readTree(test.toFile()).path("recipe").asText();
        LockRecipe r;
        try {
            r = LockRecipe.parse(recipe);
        } catch (IllegalArgumentException e) {
            throw new UserError(test + ": recipe: " + e.getMessage());
        }
        ServerLogs logs = LockServices.of(r).serverLogs(servers);
        if (logs == null) {
            throw new UserError(run + ": no transaction log lockchaos reads: " + recipe + "'s servers keep none here"
                    + " (txnlog reads ZooKeeper's)");
        }
        logs.lines().forEach(System.out::println);
        Path json = run.resolve("txnlog.json");
        ResultsJson.writeMap(json, logs.json());
        System.out.println("  written: " + json);
        return logs.hole() ? 1 : 0;
    }
}
