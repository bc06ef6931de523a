package io.lockchaos.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the servers' own logs say, placed on a history's clock: when the leader expired each session (its session
 * tracker logs {@code Expiring session 0x..., timeout of N ms exceeded}). The server deletes the session's ephemeral
 * nodes then, which no client sees directly.
 */
public final class ServerLogs {
    private static final Pattern EXPIRING = Pattern.compile(
            "^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*Expiring session 0x([0-9a-f]+),");

    private ServerLogs() {
    }

    /**
     * The session expiries logged under {@code serversDir} ({@code node-N/server.log}), as nanoseconds on the
     * history's clock.
     *
     * @param anchorNanos a history time at which the wall clock read {@code anchorWallMillis}
     * @return session id to expiry time; empty when there are no logs (an external ensemble)
     */
    public static Map<Long, Long> sessionExpiries(Path serversDir, long anchorNanos, long anchorWallMillis)
            throws IOException {
        Map<Long, Long> out = new HashMap<>();
        if (!Files.isDirectory(serversDir)) {
            return out;
        }
        ZoneId zone = ZoneId.systemDefault();
        LocalDate day = Instant.ofEpochMilli(anchorWallMillis).atZone(zone).toLocalDate();
        List<Path> logs;
        try (Stream<Path> s = Files.walk(serversDir, 2)) {
            logs = s.filter(p -> p.getFileName().toString().equals("server.log")).toList();
        }
        for (Path log : logs) {
            try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
                lines.forEach(line -> {
                    Matcher m = EXPIRING.matcher(line);
                    if (!m.find()) {
                        return;
                    }
                    long wall;
                    try {
                        wall = LocalTime.parse(m.group(1)).atDate(day).atZone(zone).toInstant().toEpochMilli();
                    } catch (DateTimeParseException e) {
                        return;
                    }
                    // log lines carry no date: a run that crossed midnight is half a day away from its anchor
                    long dayMs = 86_400_000L;
                    if (wall - anchorWallMillis > dayMs / 2) {
                        wall -= dayMs;
                    } else if (anchorWallMillis - wall > dayMs / 2) {
                        wall += dayMs;
                    }
                    out.merge(Long.parseUnsignedLong(m.group(2), 16),
                            anchorNanos + (wall - anchorWallMillis) * 1_000_000L, Math::min);
                });
            }
        }
        return out;
    }
}
