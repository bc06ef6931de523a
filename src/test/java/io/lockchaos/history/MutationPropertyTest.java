package io.lockchaos.history;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Checkers;
import io.lockchaos.checker.Recipe;
import io.lockchaos.prop.Gen;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import io.lockchaos.sim.LockSimulator;
import io.lockchaos.sim.SimConfig;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Any mutation of a valid history file gives either a check result or the one-line format error naming the source,
 * never another exception, and no checker fails on what the reader accepts.
 */
class MutationPropertyTest {
    private static final String[] FIELD_VALUES = {"null", "-1", "1e999", "\"x\"", "[]", "{}", "true", "\"nemesis\"",
        "9223372036854775808", "\"acquire\"", "\"ok\"", "\"info\"", "{\"keys\":[1,2]}", "{\"mode\":\"read\"}",
        "\"not-held\"", "0"};
    private static final String[] FIELDS = {"index", "time", "type", "process", "f", "key", "value", "error"};

    static String mutate(String text, SplittableRandom r) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        int n = r.nextInt(1, 4);
        for (int k = 0; k < n; k++) {
            int i = r.nextInt(lines.size());
            switch (r.nextInt(7)) {
                case 0 -> { // flip a byte
                    String l = lines.get(i);
                    if (!l.isEmpty()) {
                        int at = r.nextInt(l.length());
                        char c = (char) (32 + r.nextInt(95));
                        lines.set(i, l.substring(0, at) + c + l.substring(at + 1));
                    }
                }
                case 1 -> lines.remove(i);
                case 2 -> lines.add(i, lines.get(r.nextInt(lines.size())));
                case 3 -> {
                    int j = r.nextInt(lines.size());
                    String t = lines.get(i);
                    lines.set(i, lines.get(j));
                    lines.set(j, t);
                }
                case 4 -> { // replace a field's value
                    String f = FIELDS[r.nextInt(FIELDS.length)];
                    String v = FIELD_VALUES[r.nextInt(FIELD_VALUES.length)];
                    lines.set(i, lines.get(i).replaceFirst("\"" + f + "\":(\"[^\"]*\"|[^,}]*)", "\"" + f + "\":" + v));
                }
                case 5 -> { // cut the line
                    String l = lines.get(i);
                    lines.set(i, l.substring(0, r.nextInt(l.length() + 1)));
                }
                default -> { // delete a field
                    String f = FIELDS[r.nextInt(FIELDS.length)];
                    lines.set(i, lines.get(i).replaceFirst(",?\"" + f + "\":(\"[^\"]*\"|[^,}]*)", ""));
                }
            }
        }
        return String.join("\n", lines);
    }

    @Test
    void mutatedFilesGiveAResultOrTheOneLineError() {
        AtomicInteger rejected = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        Gen<String> files = r -> {
            Recipe recipe = r.nextBoolean() ? Recipe.REENTRANT_MUTEX : Recipe.READ_WRITE;
            History h = LockSimulator.run(SimConfig.defaults(recipe).withProcesses(r.nextInt(1, 5))
                    .withTargetOps(r.nextInt(5, 60)), r.nextLong()).history();
            StringBuilder s = new StringBuilder();
            for (Op op : h.ops()) {
                s.append(HistoryWriter.toJsonLine(op)).append('\n');
            }
            return mutate(s.toString(), r);
        };
        Shrinker<String> dropLines = text -> {
            String[] lines = text.split("\n", -1);
            return Stream.iterate(0, i -> i < lines.length, i -> i + 1).map(i -> {
                List<String> l = new ArrayList<>(Arrays.asList(lines));
                l.remove((int) i);
                return String.join("\n", l);
            });
        };
        Property.forAll("mutations never crash", files, dropLines).casesFromSystem(2000, 1.0).seed(424242L)
                .check(text -> {
                    History h;
                    try {
                        h = JsonlHistoryReader.read("m.jsonl", new StringReader(text));
                    } catch (HistoryFormatException e) {
                        rejected.incrementAndGet();
                        String m = e.getMessage();
                        if (!m.startsWith("m.jsonl:") || m.lines().count() != 1 || !m.matches("m\\.jsonl:\\d+: \\w+: .*")) {
                            throw new AssertionError("not a one-line file:line: field: reason error: " + m);
                        }
                        return true;
                    } catch (java.io.IOException e) {
                        throw new AssertionError(e);
                    }
                    accepted.incrementAndGet();
                    for (Recipe recipe : List.of(Recipe.MUTEX, Recipe.READ_WRITE, Recipe.semaphore(2), Recipe.MULTI)) {
                        CheckResult r = Checkers.forRecipe(recipe).check(h);
                        for (CheckResult c : r.children()) {
                            if (c.error() != null && c.error().startsWith("checker failed")) {
                                throw new AssertionError(c.checker() + ": " + c.error());
                            }
                        }
                    }
                    return true;
                });
        assertTrue(rejected.get() > 0 && accepted.get() > 0, "both outcomes occur: " + rejected + " " + accepted);
    }
}
