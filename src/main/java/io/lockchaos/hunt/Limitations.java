package io.lockchaos.hunt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lockchaos.checker.AnomalyKind;
import io.lockchaos.client.LockRecipe;
import io.lockchaos.core.AnomalyExpectation;
import io.lockchaos.fault.FaultKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What every lock of a kind does by design under a fault, which a hunt must not call a new bug: a holder paused past
 * its session or lease, a session the servers end under a connected holder, a leased lock's holder cut off past its
 * lease ({@code limitations.json} beside this class). A finding is such a limitation when every fault of its run (or
 * of its smallest test) is of the limitation's kinds and every anomaly it shows is one the limitation brings about:
 * two holders and what follows from them, never a leak or a grant on a foreign node.
 */
final class Limitations {
    /** One limitation: its id, what happens, the faults that bring it about and the anomalies it may show. */
    record Limitation(String id, String title, Set<FaultKind> faults, Set<AnomalyKind> anomalies, boolean leasedOnly) {
        boolean matches(String recipe, Set<AnomalyKind> shown, Set<FaultKind> faults) {
            return !faults.isEmpty() && this.faults.containsAll(faults) && !shown.isEmpty()
                    && anomalies.containsAll(shown) && (!leasedOnly || LockRecipe.parse(recipe).promises().leased());
        }
    }

    private final List<Limitation> limitations;

    private Limitations(List<Limitation> limitations) {
        this.limitations = List.copyOf(limitations);
    }

    /** The limitations as this jar has them. */
    static Limitations load() {
        List<Limitation> out = new ArrayList<>();
        try (InputStream in = Limitations.class.getResourceAsStream("limitations.json")) {
            for (JsonNode n : new ObjectMapper().readTree(in)) {
                Set<FaultKind> faults = EnumSet.noneOf(FaultKind.class);
                n.path("faults").forEach(f -> faults.add(FaultKind.parse(f.asText())));
                List<String> kinds = new ArrayList<>();
                n.path("anomalies").forEach(a -> kinds.add(a.asText()));
                out.add(new Limitation(n.path("id").asText(), n.path("title").asText(), faults,
                        AnomalyExpectation.parseKinds("anomalies", String.join(" ", kinds)),
                        n.path("leased_only").asBoolean(false)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Limitations(out);
    }

    List<Limitation> all() {
        return limitations;
    }

    /**
     * What a finding's smallest test must still show: of {@code shown}, the anomalies no limitation brings about (a
     * leak, a token regression), when there are any; else all of them. A run that mixes a by-design fault with the
     * cause of a real anomaly would otherwise shrink to the by-design fault alone, which still shows two holders.
     */
    Set<AnomalyKind> shrinkTarget(Set<AnomalyKind> shown) {
        Set<AnomalyKind> unexplained = EnumSet.noneOf(AnomalyKind.class);
        for (AnomalyKind k : shown) {
            if (limitations.stream().noneMatch(l -> l.anomalies().contains(k))) {
                unexplained.add(k);
            }
        }
        return unexplained.isEmpty() ? shown : unexplained;
    }

    /** The limitation a finding of {@code recipe} with these anomalies under these faults is, if any. */
    Optional<Limitation> match(String recipe, Set<AnomalyKind> shown, Set<FaultKind> faults) {
        return limitations.stream().filter(l -> l.matches(recipe, shown, faults)).findFirst();
    }
}
