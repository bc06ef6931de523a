package io.lockchaos.hunt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.core.AnomalyExpectation;
import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.checker.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The bug zoo's signatures: each known bug's workload ({@code workloads/bugs/}, which says its recipe, its faults and
 * on which versions it is invalid) and the anomaly kinds it shows ({@code known-bugs.json} beside this class). A
 * finding is that bug when its recipe is the bug's, it shows the bug's anomalies, its faults include the bug's, and
 * the bug's workload does not expect a valid run on the versions the finding ran; it is related to the bug when it
 * shows the bug's anomalies.
 */
public final class KnownBugs {
    /**
     * One known bug: its id, what it is, its zoo workload, the anomalies it shows, and anomalies any one of which
     * shows it too on its recipe ({@code or_anomalies}: Redisson 2714's interrupted acquire that took the lock leaks
     * it, or, released by a {@code finally}, shows as a release by a non-holder).
     */
    public record Bug(String id, String title, String workload, TestSpec spec, Set<AnomalyKind> anomalies,
                      Set<AnomalyKind> orAnomalies) {
        Set<FaultKind> faults() {
            Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
            for (FaultEvent e : spec.schedule().events()) {
                kinds.add(e.fault().kind());
            }
            return kinds;
        }
    }

    /** Anomalies too common to relate a finding to a bug of another recipe by themselves. */
    private static final Set<AnomalyKind> COMMON = EnumSet.of(AnomalyKind.DOUBLE_HOLDER, AnomalyKind.LOST_UPDATE);
    private final List<Bug> bugs;
    private final String missing;

    private KnownBugs(List<Bug> bugs, String missing) {
        this.bugs = List.copyOf(bugs);
        this.missing = missing;
    }

    /** The bugs of the zoo in {@code zoo} (a folder of workloads), as {@code known-bugs.json} names them. */
    public static KnownBugs load(Path zoo) throws SpecException {
        if (!Files.isDirectory(zoo)) {
            return new KnownBugs(List.of(), "the bug zoo (" + zoo + ") is not here: no finding can be named a known"
                    + " bug");
        }
        List<Bug> bugs = new ArrayList<>();
        for (JsonNode n : table()) {
            Path file = zoo.resolve(n.path("workload").asText());
            if (!Files.isRegularFile(file)) {
                continue; // a zoo without this bug's workload: the bug cannot be matched
            }
            TestSpec spec = TestSpecs.load(file);
            Set<AnomalyKind> kinds = AnomalyExpectation.parseKinds("anomalies", String.join(" ",
                    texts(n.path("anomalies"))));
            Set<AnomalyKind> or = n.has("or_anomalies") ? AnomalyExpectation.parseKinds("or_anomalies",
                    String.join(" ", texts(n.path("or_anomalies")))) : Set.of();
            bugs.add(new Bug(n.path("id").asText(), n.path("title").asText(), zoo.resolve(n.path("workload").asText())
                    .toString(), spec, kinds, or));
        }
        return new KnownBugs(bugs, null);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }

    /** The table of known bugs as this jar has it. */
    static JsonNode table() {
        try (InputStream in = KnownBugs.class.getResourceAsStream("known-bugs.json")) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Bug> bugs() {
        return bugs;
    }

    /** Why no finding can be named, or null when the zoo was read. */
    public String missing() {
        return missing;
    }

    /** The known bug a finding of {@code signature}, run as {@code spec}, is; empty for a new one. */
    public Optional<Bug> match(Signature signature, TestSpec spec) {
        for (Bug b : bugs) {
            if (related(b, signature) && signature.faults().containsAll(b.faults())
                    && b.spec().checking().expected(spec.clients().curatorVersion(),
                    spec.cluster().zooKeeperVersion()).orElse(Verdict.INVALID) != Verdict.VALID) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }

    /**
     * The known bugs whose anomalies the finding shows: first those of its recipe (on other versions or faults), then
     * those of other recipes (the same failure reached another way, CURATOR-604's and CURATOR-696's grants on an old
     * session's node by protected mode, say).
     */
    public List<Bug> related(Signature signature) {
        List<Bug> out = new ArrayList<>(bugs.stream().filter(b -> related(b, signature)).toList());
        // across recipes only by a telling anomaly: two holders alone relate every lock to every other
        bugs.stream().filter(b -> !out.contains(b) && signature.anomalies().containsAll(b.anomalies())
                        && !COMMON.containsAll(b.anomalies()))
                .forEach(out::add);
        return out;
    }

    private static boolean related(Bug b, Signature s) {
        return b.spec().recipe().wireName().equals(s.recipe()) && (s.anomalies().containsAll(b.anomalies())
                || b.orAnomalies().stream().anyMatch(s.anomalies()::contains));
    }
}
