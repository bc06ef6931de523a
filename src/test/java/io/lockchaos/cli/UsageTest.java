package io.lockchaos.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.core.TestSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a newcomer meets first: the help texts, usage errors and the errors for options. */
class UsageTest extends ConsoleCapturing {
    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void noCommandIsAUsageError() {
        assertEquals(2, Main.run());
        assertTrue(err().startsWith("lockchaos: a command is required"), err());
        assertTrue(err().contains("Commands:"), err());
    }

    @Test
    void aBadOptionPointsToTheRightHelp() {
        assertEquals(2, Main.run("--bogus"));
        assertTrue(err().contains("Try 'lockchaos --help'."), err());
        err.reset();
        assertEquals(2, Main.run("run", "--bogus"));
        assertTrue(err().contains("Try 'lockchaos run --help'."), err());
    }

    @Test
    void theTopLevelHelpHasOneWholeLinePerCommandAndAHelpCommand() {
        assertEquals(0, Main.run("--help"));
        for (String c : new String[] {"run", "replay", "shrink", "check", "report", "gen", "bench", "serve", "help"}) {
            assertTrue(out().contains("\n  " + c + " "), c + " is listed: " + out());
        }
        assertFalse(out().contains("results. json"), "no description is cut mid-word: " + out());
        for (String line : out().split("\n")) {
            assertFalse(line.matches("\\s+\\S.*,\\s*"), "no command line ends mid-sentence: " + line);
        }
        out.reset();
        assertEquals(0, Main.run("help", "check"));
        assertTrue(out().contains("Usage: lockchaos check"), out());
        out.reset();
        assertEquals(0, Main.run("--version"));
        assertTrue(out().startsWith("lockchaos "), out());
    }

    @Test
    void runHelpShowsTheDefaultsOfTheTestItRuns() {
        assertEquals(0, Main.run("run", "--help"));
        String help = out().replaceAll("\\s+", " ");
        Map<String, Object> d = TestSpec.DEFAULTS.toMap();
        String[][] shown = {{"--recipe", "recipe", ""}, {"--nodes", "nodes", ""}, {"--clients", "clients", ""},
            {"--keys", "keys", ""}, {"--time", "time_s", "s"}, {"--client-mode", "client_mode", ""},
            {"--reentry-depth", "reentry_depth", ""}, {"--proxy", "proxy", ""}, {"--cluster", "cluster", ""},
            {"--warmup", "warmup_s", "s"}};
        for (String[] o : shown) {
            int at = help.lastIndexOf(o[0] + "=");
            assertTrue(at >= 0, o[0]);
            int next = help.indexOf(" --", at + o[0].length() + 1);
            String text = help.substring(at, next < 0 ? help.length() : next);
            assertTrue(text.contains("(default: " + d.get(o[1]) + o[2] + ")"), o[0] + ": " + text);
        }
        assertFalse(help.contains("options below"), help);
    }

    @Test
    void serveRefusesWhatItCannotServeInOneLine() {
        assertEquals(2, Main.run("serve", "--store", "no/such/store", "--port", "0"));
        assertEquals("lockchaos: no/such/store: no such folder (a store is where run writes, histories/ by default)\n",
                err());
        err.reset();
        assertEquals(2, Main.run("serve", "--port", "70000"));
        assertEquals("lockchaos: --port: expected 0 to 65535, got 70000\n", err());
    }

    @Test
    void timesAreDurationsAndErrorsNameTheOption() {
        assertEquals(Duration.ofMillis(500), Durations.parse("--x", "500ms"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("--x", "30"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("--x", "1.5s"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("--x", "2m"));
        assertEquals(Duration.ofHours(1), Durations.parse("--x", "1h"));
        assertEquals(120, Durations.wholeSeconds("--x", "2m"));
        assertEquals(2, Main.run("run", "--time", "500ms"));
        assertEquals("lockchaos: --time: runs last whole seconds, got 500ms (use 1s)\n", err());
        err.reset();
        assertEquals(2, Main.run("run", "--warmup", "soon"));
        assertTrue(err().startsWith("lockchaos: --warmup: expected a duration such as 30, 30s"), err());
        err.reset();
        assertEquals(2, Main.run("run", "--clients", "three"));
        assertEquals("lockchaos: --clients: expected a whole number, got 'three'\n", err());
        err.reset();
        assertEquals(2, Main.run("run", "--nemesis", "at 1s partition ring for 1s"));
        assertTrue(err().startsWith("lockchaos: --nemesis: a ring partition needs 5 nodes"), err());
        err.reset();
        assertEquals(2, Main.run("check", "checker/clean-mutex.jsonl", "--model", "mutex", "--time-limit", "0s"));
        assertTrue(err().startsWith("lockchaos: --time-limit must be more than 0"), err());
    }
}
