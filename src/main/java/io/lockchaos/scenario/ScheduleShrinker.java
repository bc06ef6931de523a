package io.lockchaos.scenario;

import io.lockchaos.core.SpecException;
import io.lockchaos.core.TestSpec;
import io.lockchaos.core.TestSpecs;
import io.lockchaos.fault.FaultEvent;
import io.lockchaos.fault.FaultKind;
import io.lockchaos.fault.Schedule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Makes a failing test smaller while it still fails: first fewer faults, then shorter ones, then fewer clients and
 * keys, then a shorter main phase. It is greedy, like the history shrinker: it takes the first smaller candidate that
 * still reproduces and starts over from it, until no candidate does or the run budget is spent. Real runs are not
 * deterministic, so each candidate is tried up to {@code attempts} times and counts as reproducing if any try does.
 */
public final class ScheduleShrinker {
    /** Whether a test still shows the failure; called once per try. */
    @FunctionalInterface
    public interface Trial {
        boolean reproduces(TestSpec spec) throws Exception;
    }

    /**
     * One step the shrinker took.
     *
     * @param change what the candidate changed
     * @param tries how many runs it took
     * @param reproduced whether it still failed
     */
    public record Step(String change, int tries, boolean reproduced) {
    }

    /**
     * What shrinking ended with.
     *
     * @param spec the smallest test that still reproduced
     * @param steps every candidate tried, in order
     * @param runs how many runs in all
     */
    public record Outcome(TestSpec spec, List<Step> steps, int runs) {
    }

    private final int attempts;
    private final int maxRuns;
    private final Consumer<Step> log;

    /**
     * @param attempts tries per candidate (at least 1)
     * @param maxRuns the most runs shrinking may take in all
     * @param log told of each candidate as it is decided
     */
    public ScheduleShrinker(int attempts, int maxRuns, Consumer<Step> log) {
        if (attempts < 1 || maxRuns < 1) {
            throw new IllegalArgumentException("attempts and maxRuns must be at least 1");
        }
        this.attempts = attempts;
        this.maxRuns = maxRuns;
        this.log = log;
    }

    /** Shrinks {@code failing}, which must already have failed. */
    public Outcome shrink(TestSpec failing, Trial trial) throws Exception {
        TestSpec current = failing;
        List<Step> steps = new ArrayList<>();
        int runs = 0;
        boolean progress = true;
        while (progress && runs < maxRuns) {
            progress = false;
            for (Candidate c : candidates(current)) {
                int tries = 0;
                boolean reproduced = false;
                while (tries < attempts && !reproduced && runs < maxRuns) {
                    tries++;
                    runs++;
                    reproduced = trial.reproduces(c.spec());
                }
                Step step = new Step(c.change(), tries, reproduced);
                steps.add(step);
                log.accept(step);
                if (reproduced) {
                    current = c.spec();
                    progress = true;
                    break;
                }
                if (runs >= maxRuns) {
                    break;
                }
            }
        }
        return new Outcome(current, List.copyOf(steps), runs);
    }

    /** A smaller test and what makes it smaller. */
    record Candidate(String change, TestSpec spec) {
    }

    /** The smaller tests to try from {@code s}, most promising first. */
    static List<Candidate> candidates(TestSpec s) {
        List<Candidate> out = new ArrayList<>();
        Schedule schedule = s.schedule();
        List<FaultEvent> events = schedule.events();
        // a schedule of many faults (an 'every 60ms' line is hundreds) shrinks by whole kinds and halves first: one
        // fault at a time would spend the budget before it got anywhere
        List<FaultKind> kinds = new ArrayList<>(new LinkedHashSet<>(events.stream().map(e -> e.fault().kind())
                .toList()));
        java.util.Collections.reverse(kinds); // the kind that comes last first, as single faults are dropped
        for (FaultKind k : kinds.size() > 1 ? kinds : List.<FaultKind>of()) {
            List<FaultEvent> without = events.stream().filter(e -> e.fault().kind() != k).toList();
            add(out, "drop every '" + k.wireName() + "' fault", s, Map.of("nemesis", text(without)));
        }
        if (events.size() > 3) {
            add(out, "drop the later half of the faults", s,
                    Map.of("nemesis", text(events.subList(0, events.size() / 2))));
            add(out, "drop the earlier half of the faults", s,
                    Map.of("nemesis", text(events.subList(events.size() / 2, events.size()))));
        }
        for (int i = events.size() - 1; i >= 0 && events.size() > 1; i--) {
            List<FaultEvent> fewer = new ArrayList<>(events);
            FaultEvent gone = fewer.remove(i);
            add(out, "drop fault '" + gone + "'", s, Map.of("nemesis", text(fewer)));
        }
        for (int i = 0; i < events.size(); i++) {
            FaultEvent e = events.get(i);
            if (!e.fault().kind().instantaneous() && e.durationMillis() >= 1000) {
                List<FaultEvent> shorter = new ArrayList<>(events);
                shorter.set(i, new FaultEvent(e.atMillis(), e.fault(), e.durationMillis() / 2));
                add(out, "halve '" + e + "'", s, Map.of("nemesis", text(shorter)));
            }
        }
        for (int c : new java.util.TreeSet<>(List.of(2, s.clients().count() / 2, s.clients().count() - 1))) {
            if (c >= 2 && c < s.clients().count() && c >= s.workload().keys()) {
                add(out, "clients " + s.clients().count() + " -> " + c, s, Map.of("clients", Integer.toString(c)));
            }
        }
        if (s.workload().keys() > 1 && !s.recipe().spansKeys()) {
            add(out, "keys " + s.workload().keys() + " -> 1", s, Map.of("keys", "1"));
        }
        long needed = Math.max(1, (schedule.endMillis() + 999) / 1000);
        long shorterTime = Math.max(needed, s.workload().timeSeconds() / 2);
        if (shorterTime < s.workload().timeSeconds()) {
            add(out, "time " + s.workload().timeSeconds() + " s -> " + shorterTime + " s", s,
                    Map.of("time_s", Long.toString(shorterTime)));
        }
        if (s.workload().warmupSeconds() > 0) {
            add(out, "no warm-up", s, Map.of("warmup_s", "0"));
        }
        return out;
    }

    private static String text(List<FaultEvent> events) {
        List<String> parts = new ArrayList<>();
        for (FaultEvent e : events) {
            parts.add(e.toString());
        }
        return String.join("; ", parts);
    }

    /** Adds the candidate when it is a valid test (a shorter time may cut a fault off, for example). */
    private static void add(List<Candidate> out, String change, TestSpec s, Map<String, String> keys) {
        try {
            Map<String, String> m = new LinkedHashMap<>(keys);
            out.add(new Candidate(change, TestSpecs.validate("shrink", TestSpecs.with("shrink", s, m))));
        } catch (SpecException e) {
            // not a test that can run: skip it
        }
    }
}
