package io.lockchaos.core;

import io.lockchaos.checker.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a run is judged beyond its recipe's checkers.
 *
 * @param expect the verdict a scenario is expected to reach, or null when the workload states none
 * @param byCurator the verdict expected per Curator version range ({@code expect_by_curator}), first match wins; a
 *     version no range matches falls back to {@code expect}
 * @param byZooKeeper the same per ZooKeeper server release ({@code expect_by_zookeeper}); a match here comes before
 *     one of {@code byCurator}
 * @param acquireSlackMillis when 0 or more, acquires that return later than their timeout plus this many ms are
 *     violations ({@code acquire_slack_ms}; -1, the default, does not check)
 * @param memoryGrowthMb when 0 or more, the most the runner's live heap (in use after a full collection) may grow, in
 *     MB, from its sample at the end of the first minute to its highest later one ({@code expect_memory_growth_mb}; -1,
 *     the default, does not check): a soak's bound on memory that grows with the run
 * @param anyVerdict {@code expect: "any"}: the verdict is reported, not expected, as long as one was reached (a soak,
 *     whose expectation is its memory bound, under faults where a known bug shows at random moments); unknown still
 *     is no verdict
 * @param anomalies the kinds of anomaly the run must and must not show ({@code expect_anomalies},
 *     {@code expect_no_anomalies}), besides its verdict
 */
public record CheckSpec(Verdict expect, List<ByVersion> byCurator, List<ByVersion> byZooKeeper,
        long acquireSlackMillis, long memoryGrowthMb, boolean anyVerdict, AnomalyExpectation anomalies) {
    public CheckSpec {
        anomalies = anomalies == null ? AnomalyExpectation.NONE : anomalies;
        if (anyVerdict && expect != null) {
            throw new IllegalArgumentException("expect: any and a verdict at once");
        }
        if (memoryGrowthMb < -1 || memoryGrowthMb > 1_048_576) {
            throw new IllegalArgumentException("expect_memory_growth_mb: expected -1 (no check) or 0 to 1048576 (1 TB),"
                    + " got " + memoryGrowthMb);
        }
        byCurator = byCurator == null ? List.of() : List.copyOf(byCurator);
        byZooKeeper = byZooKeeper == null ? List.of() : List.copyOf(byZooKeeper);
        // a workload that states no verdict at all is expected valid, as a run without expect is
        String conflict = anomalies.conflictWith(anyVerdict ? null : expect != null ? expect
                : byCurator.isEmpty() && byZooKeeper.isEmpty() ? Verdict.VALID : null);
        if (conflict != null) {
            throw new IllegalArgumentException(conflict);
        }
        if (acquireSlackMillis < -1 || acquireSlackMillis > 600_000) {
            throw new IllegalArgumentException("acquire_slack_ms: expected -1 (no check) or 0 to 600000, got "
                    + acquireSlackMillis);
        }
    }

    public CheckSpec(Verdict expect, List<ByVersion> byCurator, List<ByVersion> byZooKeeper,
                     long acquireSlackMillis, long memoryGrowthMb, boolean anyVerdict) {
        this(expect, byCurator, byZooKeeper, acquireSlackMillis, memoryGrowthMb, anyVerdict, AnomalyExpectation.NONE);
    }

    public CheckSpec(Verdict expect) {
        this(expect, List.of(), List.of(), -1, -1, false);
    }

    /** What {@code expect} says: a verdict's name, {@code any}, or empty when the workload states nothing. */
    public String expectText() {
        return anyVerdict ? "any" : expected().map(Verdict::wireName).orElse("");
    }

    public Optional<Verdict> expected() {
        return Optional.ofNullable(expect);
    }

    /** The verdict expected of a run on Curator {@code version}. */
    public Optional<Verdict> expected(String version) {
        return expected(version, null);
    }

    /**
     * The verdict expected of a run on Curator {@code curator} against ZooKeeper servers {@code zooKeeper} (null: not
     * ZooKeeper): a server release's range first, since a server bug shows whatever the client.
     */
    public Optional<Verdict> expected(String curator, String zooKeeper) {
        if (zooKeeper != null) {
            for (ByVersion b : byZooKeeper) {
                if (b.matches(zooKeeper)) {
                    return Optional.of(b.verdict());
                }
            }
        }
        for (ByVersion b : byCurator) {
            if (b.matches(curator)) {
                return Optional.of(b.verdict());
            }
        }
        return expected();
    }

    /** The expectations per version as text, as a workload file may also give them: {@code "<5.5.0 invalid; ..."}. */
    public String byCuratorText() {
        return text(byCurator);
    }

    /** {@link #byCuratorText()} for the ZooKeeper releases. */
    public String byZooKeeperText() {
        return text(byZooKeeper);
    }

    private static String text(List<ByVersion> ranges) {
        StringBuilder b = new StringBuilder();
        for (ByVersion v : ranges) {
            b.append(b.length() == 0 ? "" : "; ").append(v.comparison()).append(v.version()).append(' ')
                    .append(v.verdict().wireName());
        }
        return b.toString();
    }

    /**
     * Reads {@link #byCuratorText()}'s form (and {@link #byZooKeeperText()}'s).
     *
     * @throws IllegalArgumentException naming the entry that cannot be read
     */
    public static List<ByVersion> parseByVersion(String text) {
        List<ByVersion> out = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String entry : text.split(";")) {
            String e = entry.trim();
            String[] parts = e.split("\\s+");
            if (parts.length != 2) {
                throw new IllegalArgumentException("expected '<range> <verdict>' such as '<5.5.0 invalid', got '" + e
                        + "'");
            }
            String range = parts[0];
            String comparison = range.startsWith("<=") || range.startsWith(">=") ? range.substring(0, 2)
                    : range.startsWith("<") || range.startsWith(">") || range.startsWith("=") ? range.substring(0, 1)
                    : "=";
            String version = range.substring(range.startsWith("=") || !comparison.equals("=") ? comparison.length()
                    : 0);
            // a qualifier too: ZooKeeper's 3.5 line was released as 3.5.3-beta, 3.5.4-beta and so on
            if (!version.matches("[0-9]+(\\.[0-9]+)*(-[A-Za-z0-9.]+)?")) {
                throw new IllegalArgumentException("'" + range + "' is no version range (expected e.g. <5.5.0,"
                        + " >=5.5.0, 5.4.0 or <3.5.4-beta)");
            }
            Verdict v = null;
            for (Verdict x : Verdict.values()) {
                if (x.wireName().equals(parts[1])) {
                    v = x;
                }
            }
            if (v == null) {
                throw new IllegalArgumentException("expected valid, invalid or unknown after " + range + ", got '"
                        + parts[1] + "'");
            }
            out.add(new ByVersion(comparison, version, v));
        }
        return out;
    }

    /** One expectation: versions {@code comparison version} (e.g. {@code < 5.5.0}) reach {@code verdict}. */
    public record ByVersion(String comparison, String version, Verdict verdict) {
        boolean matches(String v) {
            int c = compareVersions(v, version);
            return switch (comparison) {
                case "<" -> c < 0;
                case "<=" -> c <= 0;
                case ">" -> c > 0;
                case ">=" -> c >= 0;
                default -> c == 0;
            };
        }
    }

    /**
     * Orders versions by their numeric parts (5.10.0 after 5.9.0; missing parts are 0, so 5.5 = 5.5.0); a version
     * with a qualifier after its numbers (5.5.0-RC1) comes before the same numbers without one, and qualifiers order
     * by their runs of digits as numbers (RC2 before RC10).
     */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("-", 2);
        String[] y = b.split("-", 2);
        String[] xn = x[0].split("\\.");
        String[] yn = y[0].split("\\.");
        for (int i = 0; i < Math.max(xn.length, yn.length); i++) {
            int c = naturalPart(i < xn.length ? xn[i] : "0", i < yn.length ? yn[i] : "0");
            if (c != 0) {
                return c;
            }
        }
        if (x.length != y.length) {
            return x.length < y.length ? 1 : -1; // no qualifier: the release, after its candidates
        }
        return x.length == 1 ? 0 : natural(x[1], y[1]);
    }

    /** Compares two parts: as numbers when both are digits, else as text. */
    private static int naturalPart(String p, String q) {
        if (p.matches("[0-9]+") && q.matches("[0-9]+")) {
            return new java.math.BigInteger(p).compareTo(new java.math.BigInteger(q));
        }
        return p.compareTo(q);
    }

    /** Text with its runs of digits compared as numbers. */
    private static int natural(String p, String q) {
        java.util.regex.Matcher m = CHUNK.matcher(p);
        java.util.regex.Matcher n = CHUNK.matcher(q);
        while (true) {
            boolean hasM = m.find();
            boolean hasN = n.find();
            if (!hasM || !hasN) {
                return hasM == hasN ? 0 : hasM ? 1 : -1;
            }
            int c = naturalPart(m.group(), n.group());
            if (c != 0) {
                return c;
            }
        }
    }

    private static final java.util.regex.Pattern CHUNK = java.util.regex.Pattern.compile("[0-9]+|[^0-9]+");
}
