package io.lockchaos.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.history.JsonValues;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Writes timeline.html: the page template (a resource beside this class) with the {@link TimelineData} embedded as
 * JSON. The file needs nothing else: no network, scripts or fonts from elsewhere.
 */
public final class TimelineHtml {
    /** Acquire and hold windows drawn at most; more would make the page slow and the file large. */
    public static final int DEFAULT_CAP = 100_000;
    static final String TEMPLATE = "timeline.html";
    private static final String DATA_MARK = "/*LOCKCHAOS_DATA*/";
    private static final String TITLE_MARK = "{{TITLE}}";
    private static final JsonFactory JSON = new JsonFactory();

    private TimelineHtml() {
    }

    /** Writes the page for {@code data} to {@code file}. */
    public static void write(Path file, TimelineData data, CheckResult result, String title, Map<String, Object> about)
            throws IOException {
        String template = template();
        int at = template.indexOf(DATA_MARK);
        if (at < 0) {
            throw new IllegalStateException("the timeline template lacks " + DATA_MARK);
        }
        String head = template.substring(0, at).replace(TITLE_MARK, escapeHtml(title));
        String json = json(data, result, title, about);
        Files.writeString(file, head + embeddable(json) + template.substring(at + DATA_MARK.length()),
                StandardCharsets.UTF_8);
    }

    /**
     * JSON that nothing in it can end or open inside a script element: not only {@code </script} ends one early, a
     * {@code <!--} followed by {@code <script} holds the parser until a second {@code </script>}, and the page went
     * blank. JSON has {@code <} only inside strings, where {@code \u003c} is the same character.
     */
    static String embeddable(String json) {
        return json.replace("<", "\\u003c");
    }

    /** The page template as shipped: its inline scripts are what a browser may run of a timeline. */
    public static String template() {
        try (InputStream in = TimelineHtml.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + TEMPLATE + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The embedded data: flat number arrays for the bulk, small objects for the few nemesis ops and anomalies. */
    static String json(TimelineData d, CheckResult result, String title, Map<String, Object> about)
            throws IOException {
        StringWriter w = new StringWriter(64 + 40 * (d.waits().size() * 5 + d.holds().size() * 6));
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("title", title);
            g.writeStringField("verdict", result.verdict().wireName());
            g.writeFieldName("about");
            JsonValues.write(g, about);
            g.writeArrayFieldStart("checkers");
            for (CheckResult c : Reports.leaves(result)) {
                g.writeStartArray();
                g.writeString(c.checker());
                g.writeString(c.verdict().wireName());
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeNumberField("start", d.start());
            g.writeNumberField("end", d.end());
            g.writeNumberField("windows", d.windows());
            if (d.note() != null) {
                g.writeStringField("note", d.note());
            }
            g.writeFieldName("lanes");
            JsonValues.write(g, d.lanes());
            numbers(g, "waits", TimelineData.flat(d.waits(), 5));
            numbers(g, "holds", TimelineData.flat(d.holds(), 6));
            numbers(g, "states", TimelineData.flat(d.states(), 4));
            g.writeArrayFieldStart("nemesis");
            for (TimelineData.NemesisOp n : d.nemesis()) {
                g.writeStartArray();
                g.writeNumber(n.start());
                g.writeNumber(n.end());
                g.writeString(n.label());
                g.writeString(n.outcome());
                g.writeNumber(n.index());
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("faults");
            for (FaultPeriods.Period p : d.faults()) {
                g.writeStartArray();
                g.writeNumber(p.start());
                g.writeNumber(p.end());
                g.writeString(p.label());
                g.writeBoolean(p.ended());
                g.writeNumber(p.openIndex());
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("anomalies");
            for (TimelineData.Marked m : d.anomalies()) {
                Anomaly a = m.anomaly();
                g.writeStartObject();
                g.writeStringField("kind", a.kind().wireName());
                g.writeStringField("severity", a.severity().name().toLowerCase(Locale.ROOT));
                g.writeStringField("key", a.key());
                g.writeFieldName("ops");
                JsonValues.write(g, a.ops());
                g.writeNumberField("start", m.start());
                g.writeNumberField("end", m.end());
                g.writeStringField("text", a.explanation());
                numbers(g, "marks", m.marks());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return w.toString();
    }

    private static void numbers(JsonGenerator g, String name, long[] values) throws IOException {
        g.writeFieldName(name);
        g.writeArray(values, 0, values.length);
    }

    static String escapeHtml(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
