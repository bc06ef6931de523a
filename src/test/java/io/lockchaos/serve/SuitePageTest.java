package io.lockchaos.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.suite.SuiteEntry;
import io.lockchaos.suite.SuiteEntry.Outcome;
import io.lockchaos.suite.SuiteRecord;
import io.lockchaos.suite.Trends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** serve's suite page: a row of cells per workload over the stored suite runs, and what changed last. */
class SuitePageTest {
    @TempDir
    Path store;

    private void suite(String time, Outcome a, Outcome b) throws Exception {
        Path dir = Files.createDirectories(store.resolve("suite").resolve(time));
        SuiteRecord r = new SuiteRecord(dir, 600);
        r.add(entry("w-a", a));
        r.add(entry("w-b", b));
    }

    private static SuiteEntry entry(String name, Outcome o) {
        return new SuiteEntry("workloads/" + name + ".json", name, o, o == Outcome.MET ? "valid" : "invalid",
                "valid", 12.5, "", "", "", "", 0, 0);
    }

    @Test
    void eachWorkloadGetsARowOfOutcomesAndItsChange() throws Exception {
        suite("20261201T030000", Outcome.MET, Outcome.MET);
        suite("20261202T030000", Outcome.MET, Outcome.NOT_MET);
        suite("20261203T030000", Outcome.MET, Outcome.MET);
        suite("20261204T030000", Outcome.NOT_MET, Outcome.NOT_MET);
        Trends t = Trends.of(store.resolve("suite"), null);
        assertEquals(List.of("newly failing: w-a", "newly failing, flaky: w-b"), t.changes());
        try (StoreServer server = StoreServer.start(store, 0)) {
            String page = StoreServerTest.get(server.port(), "/suites");
            assertTrue(page.startsWith("HTTP/1.1 200"), page);
            assertTrue(page.contains("4 suite run(s), oldest first"), page);
            assertEquals(8, page.split("<td class=\"cell ", -1).length - 1, "a cell per workload and suite run");
            assertEquals(3, page.split("<td class=\"cell not-met\"", -1).length - 1, page);
            assertTrue(page.contains("<li>newly failing, flaky: w-b</li>"), page);
            assertTrue(StoreServerTest.get(server.port(), "/").contains("href=\"/suites\""));
        }
    }

    @Test
    void aStoreWithoutSuitesSaysSo() throws Exception {
        try (StoreServer server = StoreServer.start(store, 0)) {
            assertTrue(StoreServerTest.get(server.port(), "/suites").contains("no suite runs in this store"));
        }
    }
}
