package io.lockchaos.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.lockchaos.checker.Anomaly;
import io.lockchaos.checker.CheckResult;
import io.lockchaos.history.JsonValues;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes a check result tree as results.json: verdict, anomalies, stats and the per-checker results. */
public final class ResultsJson {
    private static final JsonFactory JSON = new JsonFactory();

    private ResultsJson() {
    }

    /** Writes atomically (temp file then move) so a reader never sees half a file. */
    public static void write(Path file, CheckResult r, Map<String, Object> about) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8);
             JsonGenerator g = JSON.createGenerator(w).useDefaultPrettyPrinter()) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : about.entrySet()) {
                g.writeFieldName(e.getKey());
                JsonValues.write(g, e.getValue());
            }
            body(g, r);
            g.writeEndObject();
        }
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes a JSON-shaped map as a pretty-printed file. */
    public static void writeMap(Path file, Map<String, Object> m) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             JsonGenerator g = JSON.createGenerator(w).useDefaultPrettyPrinter()) {
            JsonValues.write(g, m);
        }
    }

    private static void body(JsonGenerator g, CheckResult r) throws IOException {
        g.writeStringField("checker", r.checker());
        g.writeStringField("verdict", r.verdict().wireName());
        if (r.error() != null) {
            g.writeStringField("error", r.error());
        }
        if (!r.checked()) {
            g.writeBooleanField("checked", false);
        }
        g.writeArrayFieldStart("anomalies");
        for (Anomaly a : r.anomalies()) {
            g.writeStartObject();
            g.writeStringField("kind", a.kind().wireName());
            g.writeStringField("severity", a.severity().name().toLowerCase(java.util.Locale.ROOT));
            if (a.key() != null) {
                g.writeStringField("key", a.key());
            }
            g.writeFieldName("ops");
            JsonValues.write(g, a.ops());
            g.writeNumberField("start_ns", a.start());
            if (a.end() != Long.MAX_VALUE) {
                g.writeNumberField("end_ns", a.end());
            }
            g.writeStringField("explanation", a.explanation());
            g.writeFieldName("details");
            JsonValues.write(g, a.details());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName("stats");
        JsonValues.write(g, r.stats());
        if (!r.children().isEmpty()) {
            g.writeArrayFieldStart("checkers");
            for (CheckResult c : r.children()) {
                g.writeStartObject();
                body(g, c);
                g.writeEndObject();
            }
            g.writeEndArray();
        }
    }
}
