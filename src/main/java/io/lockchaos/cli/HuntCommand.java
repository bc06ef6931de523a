package io.lockchaos.cli;

import io.lockchaos.client.LockRecipe;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.hunt.Hunt;
import io.lockchaos.hunt.HuntSpace;
import io.lockchaos.hunt.KnownBugs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hunt}: runs drawn at random within a budget; every new failure shrunk, named and written as a report. */
@Command(name = "hunt", mixinStandardHelpOptions = true,
        header = "Hunt for bugs nobody named: random runs, each new failure shrunk and reported.",
        description = {"Draws runs at random from every recipe whose servers this machine can start (or --recipes),"
            + " on the Curator versions of --curator, with random workload shapes and random schedules of the faults"
            + " each recipe's service takes; never a bug zoo workload. The first run of each new signature (recipe,"
            + " anomaly kinds, fault kinds) is shrunk, run again to say how often it reproduces and on each --curator"
            + " version, matched against the bug zoo (workloads/bugs) and written as finding-N.json (the smallest"
            + " workload) and finding-N.md (a report to file) in the hunt's folder, with findings.json listing them"
            + " and what the hunt covered.",
            "Exit code: 0 the hunt ran (with or without findings), 2 error."})
final class HuntCommand implements Callable<Integer> {
    @Option(names = "--budget", required = true, description = "how long to hunt, e.g. 10m or 2h (a run under way"
            + " finishes)")
    String budget;

    @Option(names = "--recipes", split = ",", description = "recipes to draw from, comma-separated (default: every"
            + " recipe whose servers this machine can start)")
    List<String> recipes;

    @Option(names = "--curator", split = ",", description = "Curator versions a Curator recipe runs on, one drawn per"
            + " run, comma-separated (default: linked, the in-process one)")
    List<String> curators = new ArrayList<>();

    @Option(names = "--client-mode", defaultValue = "stop-on-suspended", description = "how a ZooKeeper recipe's"
            + " holder treats connection states (default: stop-on-suspended, as Curator's documentation asks)")
    String clientMode;

    @Option(names = "--seed", description = "the hunt's seed (default: random; printed)")
    Long seed;

    @Option(names = "--shrink-runs", defaultValue = "8", description = "the most runs shrinking one finding may take")
    int shrinkRuns;

    @Option(names = "--rate-runs", defaultValue = "3", description = "runs of a finding's smallest test, to say how"
            + " often it reproduces")
    int rateRuns;

    @Option(names = "--store", defaultValue = "histories/hunts", description = "where hunts are kept (default:"
            + " histories/hunts)")
    Path store;

    @Option(names = "--zoo", defaultValue = "workloads/bugs", description = "the bug zoo, whose workloads name the"
            + " known bugs (default: workloads/bugs)")
    Path zoo;

    @Override
    public Integer call() throws Exception {
        Duration limit = Durations.parse("--budget", budget);
        if (limit.isZero() || shrinkRuns < 1 || rateRuns < 1) {
            throw new UserError("--budget, --shrink-runs and --rate-runs must be more than 0");
        }
        List<LockRecipe> drawn = new ArrayList<>();
        if (recipes == null) {
            drawn.addAll(HuntSpace.runnableHere());
        } else {
            for (String r : recipes) {
                try {
                    drawn.add(LockRecipe.parse(r));
                } catch (IllegalArgumentException e) {
                    throw new UserError("--recipes: " + e.getMessage());
                }
            }
        }
        KnownBugs bugs;
        List<TestSpec> zooSpecs = new ArrayList<>();
        try {
            bugs = KnownBugs.load(zoo);
            if (Files.isDirectory(zoo)) {
                try (Stream<Path> files = Files.list(zoo)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                        zooSpecs.add(TestSpecs.load(f));
                    }
                }
            }
        } catch (SpecException e) {
            throw new UserError(e.getMessage());
        }
        long s = seed != null ? seed : new java.security.SecureRandom().nextLong();
        Path dir = store.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")));
        // Curator's and ZooKeeper's own logging into the hunt's folder, before any client exists (see ClientLog)
        Files.createDirectories(dir);
        ClientLog.redirect(dir.resolve("client.log"), false);
        HuntSpace space;
        try {
            space = new HuntSpace(drawn, curators, clientMode, s, zooSpecs);
            space.draw(0); // a space that cannot draw says so now, in one line
        } catch (IllegalArgumentException | SpecException e) {
            throw new UserError("hunt: " + e.getMessage());
        }
        System.out.printf("hunt: %s over %d recipe(s)%s, seed %d%n  folder: %s%n", budget, drawn.size(),
                curators.isEmpty() ? "" : ", Curator " + String.join(", ", curators), s, dir);
        if (bugs.missing() != null) {
            System.out.println("  " + bugs.missing());
        }
        Hunt hunt = new Hunt(space, bugs, curators, dir, new Hunt.Effort(shrinkRuns, rateRuns), System.out);
        try {
            hunt.run(limit);
        } catch (IOException e) {
            throw new UserError("hunt: " + dir + ": " + e.getMessage());
        }
        hunt.summary().forEach(System.out::println);
        System.out.println("  findings: " + dir.resolve("findings.json"));
        return 0;
    }
}
