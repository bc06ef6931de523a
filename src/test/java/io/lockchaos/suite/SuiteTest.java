package io.lockchaos.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * suite runs workloads within a budget, records them for CI, compares with the last suite, and survives a stop; its
 * shrinking of a new failure is {@link SuiteShrinkTest}'s.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@Tag("slow") // starts servers, agents, containers or child processes
class SuiteTest {
    @TempDir
    Path dir;

    /** A one-node, one-second mutex workload (a double holder is impossible without faults: valid). */
    private Path workload(String name, String expect) throws Exception {
        Path f = dir.resolve("w").resolve(name + ".json");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "{\"name\": \"" + name + "\", \"expect\": \"" + expect + "\", \"recipe\": \"mutex\","
                + " \"nodes\": 1, \"clients\": 2, \"time_s\": 1}\n");
        return f;
    }

    private String suite(int exit, String... args) {
        return suite(dir, exit, args);
    }

    /** Runs {@code suite ARGS --store DIR/store} in this JVM and returns what it printed, checking its exit code. */
    static String suite(Path dir, int exit, String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            List<String> all = new ArrayList<>(List.of("suite"));
            all.addAll(List.of(args));
            all.addAll(List.of("--store", dir.resolve("store").toString()));
            code = Main.run(all.toArray(String[]::new));
        } finally {
            System.setOut(old);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(exit, code, text);
        return text;
    }

    /** Parses junit.xml and checks it has the shape Jenkins' JUnit schema (junit-4.xsd) allows. */
    static Document xml(Path f) throws Exception {
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f.toFile());
        Element suite = d.getDocumentElement();
        assertEquals("testsuite", suite.getTagName());
        allowed(suite, List.of("name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp",
                "hostname", "id", "package"), List.of("name", "tests"));
        List<String> order = List.of("properties", "testcase", "system-out", "system-err");
        int at = 0;
        for (Element child : children(suite)) {
            int i = order.indexOf(child.getTagName());
            assertTrue(i >= at, "testsuite's children in schema order: " + child.getTagName());
            at = i;
            if (child.getTagName().equals("testcase")) {
                allowed(child, List.of("name", "assertions", "time", "classname", "status"), List.of("name"));
                List<String> caseOrder = List.of("skipped", "error", "failure", "system-out", "system-err");
                int c = 0;
                for (Element e : children(child)) {
                    int j = caseOrder.indexOf(e.getTagName());
                    assertTrue(j >= c, "testcase's children in schema order: " + e.getTagName());
                    c = j;
                    if (e.getTagName().equals("failure") || e.getTagName().equals("error")) {
                        allowed(e, List.of("type", "message"), List.of());
                    } else {
                        allowed(e, List.of(), List.of()); // skipped and system-out are plain text
                        assertTrue(children(e).isEmpty(), e.getTagName() + " holds text only");
                    }
                }
            }
        }
        return d;
    }

    private static void allowed(Element e, List<String> names, List<String> required) {
        for (int i = 0; i < e.getAttributes().getLength(); i++) {
            String a = e.getAttributes().item(i).getNodeName();
            assertTrue(names.contains(a), e.getTagName() + " may not have " + a);
        }
        for (String r : required) {
            assertTrue(e.hasAttribute(r), e.getTagName() + " needs " + r);
        }
    }

    private static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < e.getChildNodes().getLength(); i++) {
            if (e.getChildNodes().item(i) instanceof Element c) {
                out.add(c);
            }
        }
        return out;
    }

    @Test
    void aSecondSuiteSaysWhatChangedAndTheBudgetSkipsWhatItCannotBegin() throws Exception {
        Path a = workload("suite-a", "valid");
        Path b = workload("suite-b", "valid");
        String first = suite(0, a.toString(), b.toString(), "--budget", "5m");
        assertTrue(first.contains("2 of 2 met their expectation"), first);
        Path record = dir.resolve("store/suite/latest");
        Document junit = xml(record.resolve("junit.xml"));
        Element suite = junit.getDocumentElement();
        assertEquals("testsuite", suite.getTagName());
        assertEquals("2", suite.getAttribute("tests"));
        assertEquals("0", suite.getAttribute("failures"));
        assertEquals(2, suite.getElementsByTagName("testcase").getLength());
        assertTrue(Files.readString(record.resolve("suite.json")).contains("\"replay\" : \"bin/lockchaos replay "));

        // the same workload now expects invalid: it misses, and the comparison says it is newly failing
        Files.writeString(a, Files.readString(a).replace("\"expect\": \"valid\"", "\"expect\": \"invalid\""));
        String second = suite(1, a.toString(), b.toString(), "--budget", "5m");
        assertTrue(second.contains("newly failing: suite-a"), second);
        Element s2 = xml(record.resolve("junit.xml")).getDocumentElement();
        assertEquals("1", s2.getAttribute("failures"));
        Element failure = (Element) s2.getElementsByTagName("failure").item(0);
        assertTrue(failure.getAttribute("message").startsWith("valid, expected invalid"), failure.getAttribute(
                "message"));

        // a budget shorter than one run: the first runs to its end, the second never begins
        String third = suite(2, b.toString(), a.toString(), "--budget", "1s");
        assertTrue(third.contains("skipped  suite-a (the budget ran out before it began)"), third);
        assertEquals("1", xml(record.resolve("junit.xml")).getDocumentElement().getAttribute("skipped"));
        Trends t = Trends.of(dir.resolve("store/suite"), null);
        assertEquals(3, t.runs().size());
        Trends.Row rowA = t.rows().stream().filter(r -> r.name().equals("suite-a")).findFirst().orElseThrow();
        assertEquals(List.of(SuiteEntry.Outcome.MET, SuiteEntry.Outcome.NOT_MET, SuiteEntry.Outcome.SKIPPED),
                rowA.outcomes());
    }

    @Test
    void aStoppedSuiteKeepsItsResultsAndRecordsTheRunningWorkloadAsCut() throws Exception {
        Path a = workload("stop-a", "valid");
        Path slow = dir.resolve("w/stop-slow.json");
        Files.writeString(slow, "{\"name\": \"stop-slow\", \"recipe\": \"mutex\", \"nodes\": 1, \"clients\": 2,"
                + " \"time_s\": 60}\n");
        Path store = dir.resolve("stopstore");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "io.lockchaos.cli.Main", "suite", a.toString(),
                slow.toString(), "--budget", "10m", "--store", store.toString());
        Path log = dir.resolve("suite.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(log).contains("met      stop-a") || !Files.isDirectory(store.resolve(
                    "stop-slow"))) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, Files.readString(log));
                Thread.sleep(200);
            }
            Thread.sleep(3000); // the slow workload's servers are up
            p.destroy(); // SIGTERM, as a CI's cancel sends
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the suite stopped");
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        SuiteRecord r = SuiteRecord.read(store.resolve("suite/latest"));
        assertEquals(2, r.entries().size(), Files.readString(log));
        assertEquals(SuiteEntry.Outcome.MET, r.entries().get(0).outcome());
        assertEquals(SuiteEntry.Outcome.CUT, r.entries().get(1).outcome());
        assertFalse(p.descendants().anyMatch(ProcessHandle::isAlive), "no run outlives the suite");
    }
}
