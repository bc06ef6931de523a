package io.lockchaos.cli;

import io.lockchaos.core.SpecException;
import io.lockchaos.report.ConsoleSummary;
import io.lockchaos.scenario.Scenario;
import io.lockchaos.scenario.ScenarioResult;
import io.lockchaos.store.RunDir;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code replay RUN_DIR}: runs a stored run's exact test again: parameters, seed and expanded fault schedule. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        header = "Run a stored run's exact test again: parameters, seed and fault schedule.",
        description = {"Re-runs a stored run's exact test: its parameters, its seed and its fault schedule as that run"
            + " expanded it.", "Exit code: 0 valid, 1 invalid, 2 unknown or error."})
final class ReplayCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "a stored run's folder (histories/<test>/<time>)")
    Path runDir;

    @Option(names = "--store", defaultValue = "histories", description = "where the new run is stored")
    Path store;

    @Override
    public Integer call() throws Exception {
        Scenario s;
        try {
            s = Scenario.replay(runDir).store(store).console(System.out);
            System.out.println("replay of " + runDir + ": seed " + s.spec().seed() + ", "
                    + s.spec().schedule().events().size() + " fault(s)");
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        ScenarioResult r = s.run();
        ConsoleSummary.print(System.out, RunDir.of(r.dir()).history().toString(), r.result());
        return r.verdict().exitCode();
    }
}
