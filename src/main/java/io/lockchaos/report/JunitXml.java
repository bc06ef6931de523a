package io.lockchaos.report;

import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.checker.Verdict;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes junit.xml so that CI servers show a run natively: one {@code <testsuite name="lockchaos.NAME">} with one
 * {@code <testcase>} per checker. A valid checker passes; an invalid one has a {@code <failure>} listing its
 * anomalies; an unknown one has an {@code <error type="unknown">}, not a {@code <skipped>}, because CI treats skipped
 * as fine while lockchaos exits 2 for unknown: the file and the exit code must agree.
 */
public final class JunitXml {
    /** Anomalies listed per test case; results.json has them all. */
    static final int LISTED = 20;

    private JunitXml() {
    }

    /** Writes the suite for {@code result}; {@code about}'s scalar entries become {@code <properties>}. */
    public static void write(Path file, String testName, CheckResult result, Map<String, Object> about)
            throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(w);
            write(x, testName, result, about);
            x.close();
        } catch (XMLStreamException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static void write(XMLStreamWriter x, String testName, CheckResult result, Map<String, Object> about)
            throws XMLStreamException {
        List<CheckResult> cases = Reports.leaves(result);
        String suite = "lockchaos." + testName;
        x.writeStartDocument("UTF-8", "1.0");
        x.writeCharacters("\n");
        x.writeStartElement("testsuite");
        x.writeAttribute("name", clean(suite));
        x.writeAttribute("tests", Integer.toString(cases.size()));
        x.writeAttribute("failures", Long.toString(count(cases, Verdict.INVALID)));
        x.writeAttribute("errors", Long.toString(count(cases, Verdict.UNKNOWN)));
        x.writeAttribute("skipped", "0");
        x.writeAttribute("time", "0");
        x.writeCharacters("\n  ");
        x.writeStartElement("properties");
        for (Map.Entry<String, Object> e : about.entrySet()) {
            if (e.getValue() instanceof Map || e.getValue() instanceof List || e.getValue() == null) {
                continue;
            }
            x.writeCharacters("\n    ");
            x.writeEmptyElement("property");
            x.writeAttribute("name", clean(e.getKey()));
            x.writeAttribute("value", clean(String.valueOf(e.getValue())));
        }
        x.writeCharacters("\n  ");
        x.writeEndElement();
        for (CheckResult c : cases) {
            x.writeCharacters("\n  ");
            x.writeStartElement("testcase");
            x.writeAttribute("classname", clean(suite));
            x.writeAttribute("name", clean(c.checker()));
            x.writeAttribute("time", "0");
            if (c.verdict() == Verdict.INVALID) {
                outcome(x, "failure", "invalid", "invalid: " + summary(c), details(c));
            } else if (c.verdict() == Verdict.UNKNOWN) {
                String why = c.error() != null ? c.error() : summary(c);
                outcome(x, "error", "unknown", "unknown: " + why, details(c));
            }
            x.writeEndElement();
        }
        x.writeCharacters("\n");
        x.writeEndElement();
        x.writeCharacters("\n");
        x.writeEndDocument();
    }

    private static void outcome(XMLStreamWriter x, String element, String type, String message, String text)
            throws XMLStreamException {
        x.writeCharacters("\n    ");
        x.writeStartElement(element);
        x.writeAttribute("type", type);
        x.writeAttribute("message", clean(message));
        x.writeCharacters(clean(text));
        x.writeEndElement();
        x.writeCharacters("\n  ");
    }

    private static long count(List<CheckResult> cases, Verdict v) {
        return cases.stream().filter(c -> c.verdict() == v).count();
    }

    /** "2 anomalies: double-holder, lost-lock". */
    static String summary(CheckResult c) {
        List<Anomaly> all = c.allAnomalies();
        String kinds = all.stream().map(a -> a.kind().wireName()).distinct().collect(Collectors.joining(", "));
        return all.size() + (all.size() == 1 ? " anomaly" : " anomalies") + (kinds.isEmpty() ? "" : ": " + kinds);
    }

    private static String details(CheckResult c) {
        StringBuilder b = new StringBuilder();
        List<Anomaly> all = c.allAnomalies();
        for (int i = 0; i < Math.min(LISTED, all.size()); i++) {
            Anomaly a = all.get(i);
            b.append(a.kind().wireName()).append(" (ops ").append(a.ops()).append("): ").append(a.explanation())
                    .append('\n');
        }
        if (all.size() > LISTED) {
            b.append("... and ").append(all.size() - LISTED).append(" more in results.json\n");
        }
        return b.toString();
    }

    /** XML 1.0 cannot carry most control characters, even escaped; they become '?'. */
    public static String clean(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
                    || Character.isSurrogate(c);
            b.append(ok ? c : '?');
        }
        return b.toString();
    }
}
