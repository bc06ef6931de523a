package io.lockchaos.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import io.lockchaos.checker.linear.Expiry;
import io.lockchaos.checker.linear.LinearizabilityChecker;
import io.lockchaos.checker.linear.Models;
import io.lockchaos.history.EdnHistory;
import io.lockchaos.history.History;
import io.lockchaos.prop.Gen;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every model, read as Knossos reads a history ({@code --expiry none}), against {@link KnossosOracle} on small random
 * Jepsen EDN histories: non-holder releases, {@code :not-held} and other failures, crashes ({@code :info}, after which
 * the process is renumbered as Jepsen does), calls still in flight at the end, and register values of every EDN kind in
 * random spellings. The checker reads the EDN text; the oracle reads the calls the text was printed from. 4,000 cases
 * per model in {@code mvn verify}, 100,000 with {@code -Pnightly}; a failure prints its seed (replay with
 * -Dlockchaos.seed) and the shrunk history.
 */
class KnossosDifferentialTest {
    /** One line of the history: an invocation or a completion of call {@code call}. */
    record Event(int call, String type, int process, String f, Value in, Value out, String mode, String error) {
    }

    /** A history as generated: its events in order, and the seed its EDN spellings are drawn from. */
    record Case(String model, List<Event> events, long printSeed) {
        String edn() {
            SplittableRandom r = new SplittableRandom(printSeed);
            StringBuilder b = new StringBuilder();
            for (Event e : events) {
                b.append("{:type :").append(e.type()).append(", :f :").append(e.f()).append(", :process ")
                        .append(e.process());
                Value v = e.type().equals("invoke") ? e.in() : e.out();
                if (e.mode() != null) {
                    b.append(", :value {:mode :").append(e.mode()).append('}');
                } else if (v != null) {
                    b.append(", :value ").append(v.print(r));
                }
                if (e.error() != null) {
                    b.append(", :error :").append(e.error());
                }
                b.append("}\n");
            }
            return b.toString();
        }

        /** The calls as Jepsen defines them: failed ones left out, each with its window in positions. */
        List<KnossosOracle.Call> calls() {
            List<KnossosOracle.Call> out = new ArrayList<>();
            for (int i = 0; i < events.size(); i++) {
                Event inv = events.get(i);
                if (!inv.type().equals("invoke")) {
                    continue;
                }
                Event done = null;
                int at = -1;
                for (int j = i + 1; j < events.size(); j++) {
                    if (events.get(j).call() == inv.call()) {
                        done = events.get(j);
                        at = j;
                        break;
                    }
                }
                if (done != null && done.type().equals("fail")) {
                    continue;
                }
                boolean ok = done != null && done.type().equals("ok");
                out.add(new KnossosOracle.Call(inv.process(), inv.f(), inv.in(), ok ? done.out() : null, inv.mode(),
                        i, ok ? at : -1));
            }
            return out;
        }
    }

    static Gen<Case> cases(String model) {
        boolean register = model.endsWith("register");
        return r -> {
            List<Event> events = new ArrayList<>();
            int processes = 2 + r.nextInt(2);
            int[] id = IntStream.range(0, processes).toArray();
            Event[] pending = new Event[processes];
            List<Value> written = new ArrayList<>();
            int next = processes;
            int calls = 0;
            for (int step = 2 + r.nextInt(10); step > 0; step--) {
                int slot = r.nextInt(processes);
                Event inv = pending[slot];
                if (inv == null) {
                    pending[slot] = invoke(model, register, calls++, id[slot], r, written);
                    events.add(pending[slot]);
                    continue;
                }
                int roll = r.nextInt(10);
                String type = roll < 6 ? "ok" : roll < 8 ? "fail" : "info";
                Value out = inv.in();
                String error = null;
                if (inv.f().equals("read")) {
                    out = type.equals("ok") ? readValue(r, written) : null;
                } else if (type.equals("fail") && inv.f().equals("release")) {
                    error = r.nextBoolean() ? "not-held" : "timeout";
                } else if (!type.equals("ok")) {
                    error = "timeout";
                }
                events.add(new Event(inv.call(), type, inv.process(), inv.f(), inv.in(), out, inv.mode(), error));
                pending[slot] = null;
                if (type.equals("info")) {
                    id[slot] = next++; // Jepsen gives a crashed process's successor a new number
                }
            }
            return new Case(model, List.copyOf(events), r.nextLong());
        };
    }

    private static Event invoke(String model, boolean register, int call, int process, SplittableRandom r,
                                List<Value> written) {
        if (register) {
            int k = r.nextInt(model.equals("cas-register") ? 3 : 2);
            if (k == 0) {
                return new Event(call, "invoke", process, "read", null, null, null, null);
            }
            if (k == 1) {
                Value v = Value.random(r, 2);
                written.add(v);
                return new Event(call, "invoke", process, "write", v, null, null, null);
            }
            Value nv = Value.random(r, 1);
            written.add(nv);
            return new Event(call, "invoke", process, "cas", new Value.Seq(List.of(readValue(r, written), nv)),
                    null, null, null);
        }
        String f = r.nextInt(5) < 3 ? "acquire" : "release";
        String mode = !model.equals("rw") ? null : f.equals("acquire") ? (r.nextBoolean() ? "read" : "write")
                : new String[] {"read", "write", null}[r.nextInt(3)];
        return new Event(call, "invoke", process, f, null, null, mode, null);
    }

    /** A value a read may return: mostly one written before (or nil), sometimes anything. */
    private static Value readValue(SplittableRandom r, List<Value> written) {
        int k = r.nextInt(10);
        if (k < 6 && !written.isEmpty()) {
            return written.get(r.nextInt(written.size()));
        }
        return k < 8 ? Value.NIL : Value.random(r, 2);
    }

    /** Shrinks by leaving out one call (its invocation and completion) at a time. */
    static Shrinker<Case> shrinker() {
        return c -> c.events().stream().map(Event::call).distinct().map(call -> new Case(c.model(),
                c.events().stream().filter(e -> e.call() != call).toList(), c.printSeed()));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"mutex", "owner-mutex", "reentrant-mutex", "semaphore:1", "semaphore:2", "rw",
        "register", "cas-register"})
    void everyModelAgreesWithTheKnossosOracle(String model) {
        KnossosOracle.Tally tally = new KnossosOracle.Tally();
        Property<Case> p = Property.forAll("knossos " + model, cases(model), shrinker())
                .describedBy(Case::edn).casesFromSystem(2000, 2.0).seed(model.hashCode() * 7919L).maxShrinkSteps(400);
        Property.Outcome<Case> o = p.run(c -> {
            boolean oracle = KnossosOracle.linearizable(model, c.calls());
            History h;
            try {
                h = EdnHistory.read("case.edn", c.edn());
            } catch (Exception e) {
                throw new AssertionError("the reader refused a generated history: " + e.getMessage(), e);
            }
            CheckResult r = new LinearizabilityChecker(Models.parse(model), Expiry.NONE, Duration.ofSeconds(20),
                    1_000_000).check(h);
            if (r.checked()) {
                tally.add(model, oracle);
                if (r.verdict() != (oracle ? Verdict.VALID : Verdict.INVALID)) {
                    throw new AssertionError("oracle says linearizable=" + oracle + ", " + model + " says "
                            + r.verdict() + " " + r.allAnomalies());
                }
            } else if (!oracle) {
                throw new AssertionError("nothing checked, but the oracle finds the history not linearizable");
            }
            return true;
        });
        assertTrue(o.passed(), () -> p.message(o));
        int[] t = tally.of(model);
        System.out.println("knossos oracle: " + o.casesRun() + " cases (seed " + o.seed() + "): " + tally.summary());
        // a generator that only ever made one kind of history would prove little
        assertTrue(t[0] > o.casesRun() / 20 && t[1] > o.casesRun() / 20, tally::summary);
    }
}
