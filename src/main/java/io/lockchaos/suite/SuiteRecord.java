package io.lockchaos.suite;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lockchaos.report.JunitXml;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * A suite run as stored: {@code suite.json} (every workload's outcome, verdict, duration, run folder and the command
 * that replays it) and {@code junit.xml} (one test case per workload, for CI dashboards), both rewritten whole after
 * every workload, through a temporary file, so that a suite stopped at any moment leaves a readable record.
 */
public final class SuiteRecord {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final String started;
    private final long budgetSeconds;
    private final List<SuiteEntry> entries = new ArrayList<>();

    public SuiteRecord(Path dir, long budgetSeconds) {
        this.dir = dir;
        this.started = Instant.now().toString();
        this.budgetSeconds = budgetSeconds;
    }

    private SuiteRecord(Path dir, String started, long budgetSeconds, List<SuiteEntry> entries) {
        this.dir = dir;
        this.started = started;
        this.budgetSeconds = budgetSeconds;
        this.entries.addAll(entries);
    }

    public Path dir() {
        return dir;
    }

    public synchronized List<SuiteEntry> entries() {
        return List.copyOf(entries);
    }

    /** Adds a workload's entry and rewrites the record. */
    public synchronized void add(SuiteEntry e) throws IOException {
        entries.add(e);
        write();
    }

    /** 1 if a workload missed its expectation, else 2 if one crashed, was cut or skipped, else 0. */
    public synchronized int exitCode() {
        if (entries.stream().anyMatch(e -> e.outcome() == SuiteEntry.Outcome.NOT_MET)) {
            return 1;
        }
        return entries.stream().allMatch(e -> e.outcome() == SuiteEntry.Outcome.MET) ? 0 : 2;
    }

    /** Writes suite.json and junit.xml. */
    public synchronized void write() throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("started", started);
        m.put("budget_s", budgetSeconds);
        m.put("exit_code", exitCode());
        List<Map<String, Object>> list = new ArrayList<>();
        for (SuiteEntry e : entries) {
            list.add(e.toMap());
        }
        m.put("workloads", list);
        Path tmp = dir.resolve("suite.json.tmp");
        JSON.writeValue(tmp.toFile(), m);
        Files.move(tmp, dir.resolve("suite.json"), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        Path xml = dir.resolve("junit.xml.tmp");
        writeJunit(xml);
        Files.move(xml, dir.resolve("junit.xml"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads a stored suite.json. */
    public static SuiteRecord read(Path dir) throws IOException {
        Map<?, ?> m = JSON.readValue(dir.resolve("suite.json").toFile(), Map.class);
        List<SuiteEntry> list = new ArrayList<>();
        if (m.get("workloads") instanceof List<?> l) {
            for (Object o : l) {
                if (o instanceof Map<?, ?> e) {
                    list.add(SuiteEntry.fromMap(e));
                }
            }
        }
        return new SuiteRecord(dir, String.valueOf(m.get("started")), m.get("budget_s") instanceof Number n
                ? n.longValue() : 0, list);
    }

    /**
     * JUnit XML as Jenkins' schema has it: one {@code testsuite}, a {@code testcase} per workload, a {@code failure}
     * for a missed expectation (its message the verdict and the first story line), an {@code error} for a crashed or
     * cut run, {@code skipped} for one the budget never began; {@code system-out} holds the run's summary.
     */
    private void writeJunit(Path file) throws IOException {
        long failures = entries.stream().filter(e -> e.outcome() == SuiteEntry.Outcome.NOT_MET).count();
        long errors = entries.stream().filter(e -> e.outcome() == SuiteEntry.Outcome.CRASHED
                || e.outcome() == SuiteEntry.Outcome.CUT).count();
        long skipped = entries.stream().filter(e -> e.outcome() == SuiteEntry.Outcome.SKIPPED).count();
        double time = entries.stream().mapToDouble(SuiteEntry::seconds).sum();
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(w);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            x.writeStartElement("testsuite");
            x.writeAttribute("name", "lockchaos.suite");
            x.writeAttribute("tests", Integer.toString(entries.size()));
            x.writeAttribute("failures", Long.toString(failures));
            x.writeAttribute("errors", Long.toString(errors));
            x.writeAttribute("skipped", Long.toString(skipped));
            x.writeAttribute("time", String.format(java.util.Locale.ROOT, "%.1f", time));
            x.writeAttribute("timestamp", started.length() >= 19 ? started.substring(0, 19) : started);
            for (SuiteEntry e : entries) {
                x.writeCharacters("\n  ");
                x.writeStartElement("testcase");
                x.writeAttribute("classname", "lockchaos.suite");
                x.writeAttribute("name", clean(e.name() + " (" + e.file() + ")"));
                x.writeAttribute("time", String.format(java.util.Locale.ROOT, "%.1f", e.seconds()));
                String says = (e.verdict().isEmpty() ? "no verdict" : e.verdict()) + ", expected " + e.expected()
                        + (e.firstStory().isEmpty() ? "" : ": " + e.firstStory());
                switch (e.outcome()) {
                    case NOT_MET -> element(x, "failure", "expectation", says, e.replay()
                            + (e.minimal().isEmpty() ? "" : "\nshrunk: bin/lockchaos run --workload " + e.minimal()));
                    case CRASHED -> element(x, "error", "crashed", says, e.replay());
                    case CUT -> element(x, "error", "cut", "stopped by the budget or an interrupt: " + says,
                            e.replay());
                    case SKIPPED -> {
                        // Jenkins' schema (junit-4.xsd) gives skipped text and no attributes
                        x.writeCharacters("\n    ");
                        x.writeStartElement("skipped");
                        x.writeCharacters("the budget ran out before it began");
                        x.writeEndElement();
                    }
                    case MET -> { }
                }
                if (!e.summary().isEmpty()) {
                    x.writeCharacters("\n    ");
                    x.writeStartElement("system-out");
                    x.writeCharacters(clean(e.summary()));
                    x.writeEndElement();
                }
                x.writeCharacters("\n  ");
                x.writeEndElement();
            }
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndDocument();
            x.close();
        } catch (XMLStreamException ex) {
            throw new IOException(file + ": " + ex.getMessage(), ex);
        }
    }

    private static void element(XMLStreamWriter x, String name, String type, String message, String text)
            throws XMLStreamException {
        x.writeCharacters("\n    ");
        x.writeStartElement(name);
        x.writeAttribute("type", type);
        x.writeAttribute("message", clean(message));
        if (!text.isEmpty()) {
            x.writeCharacters(clean("replay: " + text));
        }
        x.writeEndElement();
    }

    private static String clean(String s) {
        return JunitXml.clean(s);
    }
}
