package io.lockchaos.cli;

import io.lockchaos.cluster.EnvironmentProblem;
import io.lockchaos.cluster.ParentWatchdog;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code lockchaos.jar}. */
@Command(name = "lockchaos", mixinStandardHelpOptions = true, version = "lockchaos 0.1.0",
        description = "Jepsen-style correctness tester for distributed locks.",
        footer = {"", "'lockchaos help COMMAND' or 'lockchaos COMMAND --help' describes a command."},
        subcommands = {RunCommand.class, ReplayCommand.class, ShrinkCommand.class, CheckCommand.class,
            ReportCommand.class, MatrixCommand.class, CompareCommand.class, GenCommand.class, BenchCommand.class,
            ServeCommand.class, ToxiproxyServerCommand.class, ExportCommand.class, SuiteCommand.class, SshLabCommand.class,
            HuntCommand.class, TxnlogCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No command is a usage error like any other: the usage goes to standard error and the exit code is 2. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("lockchaos: a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    public static void main(String[] args) {
        // A harness that starts lockchaos through a shell (the documentation tests) names itself here, so that this
        // JVM, and through their own watchdogs the servers it starts, end when the harness is killed.
        String parent = System.getenv("LOCKCHAOS_PARENT_PID");
        if (parent != null && parent.matches("[0-9]+")) {
            ParentWatchdog.start(Long.parseLong(parent));
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code instead of exiting, for tests. */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new Main());
        RunCommand.addKeyOptions(cl.getSubcommands().get("run").getCommandSpec());
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            // Expected failures carry a one-line message; anything else is a bug and still gets one line.
            EnvironmentProblem env = EnvironmentProblem.in(ex);
            String msg = ex instanceof UserError ? ex.getMessage() : env != null ? env.getMessage()
                    : "internal error: " + ex;
            line.getErr().println("lockchaos: " + msg);
            return 2;
        });
        cl.setParameterExceptionHandler((ex, args1) -> {
            ex.getCommandLine().getErr().println("lockchaos: " + ex.getMessage());
            // the qualified name is "lockchaos" at the top and "lockchaos run" below it
            ex.getCommandLine().getErr().println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help'.");
            return 2;
        });
        try {
            return cl.execute(args);
        } catch (StackOverflowError | OutOfMemoryError e) {
            // no input may end in a stack trace or in exit 1, which means "a violation was found"
            System.err.println("lockchaos: internal error: " + e);
            return 2;
        }
    }
}
