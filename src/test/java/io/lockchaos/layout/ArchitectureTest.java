package io.lockchaos.layout;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout rules of docs/architecture.md, read from the sources: no package cycle, counting every name of a project
 * package in code (imports, names written in full, class names in strings) and not only imports; project classes
 * imported rather than named in full; and a lock service's identity decided in its own package (or asked of {@code
 * LockServices}), never branched on elsewhere, except where the table below allows it: a figure may only go down (a
 * figure above the count fails too, so that what was moved stays moved).
 */
class ArchitectureTest {
    private static final Path MAIN = Path.of("src/main/java/io/lockchaos");
    private static final Pattern PROJECT_NAME = Pattern.compile("\\bio\\.lockchaos\\.([a-z]+)\\b");
    private static final Pattern FULL_CLASS_NAME = Pattern.compile("\\bio\\.lockchaos\\.[a-z]+\\.[A-Z]");
    /** Packages where a service decides about itself: each service's own, and client, where the recipes are listed. */
    private static final Set<String> SERVICE_PACKAGES = Set.of("client", "zookeeper", "redis", "pg", "etcd", "hazelcast");
    /**
     * A branch on which service a lock runs on, a reach into another service's package, or a ZooKeeper ensemble built
     * outside ZooKeeper's service (its servers start behind {@code LockService.start}, as every service's do).
     */
    private static final Pattern IDENTITY = Pattern.compile("\\brecipe(\\(\\))?\\.(redis|postgres|etcd|zooKeeper|naive"
            + "|multiInstance)\\(\\)|Backend\\.(ZOOKEEPER|REDIS|POSTGRES|ETCD|HAZELCAST)\\b|Kind\\.(REDISSON|REDISSON_FENCED"
            + "|REDLOCK|REDLOCK_TUTORIAL|REDIS_SINGLE|PG_[A-Z_]+|ETCD_[A-Z_]+|HAZELCAST_[A-Z_]+|NAIVE_[A-Z_]+)\\b"
            + "|^import io\\.lockchaos\\.(redis|pg|etcd|hazelcast|zookeeper)\\.|\\b(Local|Ssh|Container)Ensemble\\.builder\\(",
            Pattern.MULTILINE);
    /**
     * Where a branch on a service's identity is still allowed, and how many: the public API's default backend
     * (ZooKeeper, for a user's factory that says nothing) is the API's own.
     */
    private static final Map<String, Integer> STILL_ALLOWED = Map.of("api/LockFactory.java", 1);
    /**
     * The packages of recipes that wrap a lock library, each written against the public API as a user writes a lock:
     * what each may import besides {@code java.*}, {@code javax.*} and {@code io.lockchaos.api} (its library, and
     * what the library's own API hands over). Their factories name their backend as a user's does.
     */
    private static final Map<String, List<String>> LIBRARY_PACKAGES = Map.of("shedlock", List.of(
            "net.javacrumbs.shedlock.", "org.springframework.jdbc.", "org.springframework.transaction.",
            "org.postgresql.", "org.apache.curator.", "org.apache.zookeeper.", "redis.clients.jedis."), "spring", List.of("org.springframework.integration.", "org.springframework.jdbc.",
            "org.springframework.transaction.", "org.springframework.dao.", "org.postgresql.",
            "org.springframework.data.redis.", "org.springframework.scheduling.", "io.lettuce.core.",
            "org.apache.curator.", "org.apache.zookeeper."), "hazelcastlock", List.of("com.hazelcast."));
    private static final Pattern IMPORT = Pattern.compile("^import (static )?([\\w.]+)", Pattern.MULTILINE);

    /** A source file: its package (under io.lockchaos), its path under it, and its text without comments. */
    private record Source(String pkg, String path, String code) {
        /** The code with its string and character literals emptied (their line breaks kept). */
        String withoutStrings() {
            StringBuilder b = new StringBuilder(code.length());
            int i = 0;
            while (i < code.length()) {
                char c = code.charAt(i);
                if (c != '"' && c != '\'') {
                    b.append(c);
                    i++;
                    continue;
                }
                int j;
                if (code.startsWith("\"\"\"", i)) {
                    j = code.indexOf("\"\"\"", i + 3) + 3;
                } else {
                    j = i + 1;
                    while (j < code.length() && code.charAt(j) != c) {
                        j += code.charAt(j) == '\\' ? 2 : 1;
                    }
                    j++;
                }
                j = Math.min(Math.max(j, i + 1), code.length());
                b.append(c).append("\n".repeat((int) code.substring(i, j).chars().filter(ch -> ch == '\n').count()))
                        .append(c);
                i = j;
            }
            return b.toString();
        }
    }

    private static List<Source> sources() throws IOException {
        List<Source> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(MAIN)) {
            for (Path p : (Iterable<Path>) s.filter(f -> f.toString().endsWith(".java")).sorted()::iterator) {
                String rel = MAIN.relativize(p).toString();
                out.add(new Source(rel.substring(0, rel.indexOf('/')), rel,
                        withoutComments(Files.readString(p, StandardCharsets.UTF_8))));
            }
        }
        assertTrue(out.size() > 100, "the sources are where they should be: " + MAIN.toAbsolutePath());
        return out;
    }

    /** Java text without its comments; string literals (which may hold comment marks) are kept as they are. */
    static String withoutComments(String s) {
        StringBuilder b = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? s.length() : end;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                String comment = s.substring(i, end < 0 ? s.length() : end + 2);
                b.append("\n".repeat((int) comment.chars().filter(ch -> ch == '\n').count())); // keep line numbers
                i = end < 0 ? s.length() : end + 2;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                if (s.startsWith("\"\"\"", i)) {
                    j = s.indexOf("\"\"\"", i + 3) + 3;
                } else {
                    while (j < s.length() && s.charAt(j) != c) {
                        j += s.charAt(j) == '\\' ? 2 : 1;
                    }
                    j++;
                }
                j = Math.min(Math.max(j, i + 1), s.length());
                b.append(s, i, j);
                i = j;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    @Test
    void noPackageCycleCountingEveryNameInCode() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        Map<String, String> why = new HashMap<>();
        for (Source s : sources()) {
            uses.computeIfAbsent(s.pkg(), k -> new TreeSet<>());
            Matcher m = PROJECT_NAME.matcher(s.code());
            while (m.find()) {
                String other = m.group(1);
                if (!other.equals(s.pkg()) && Files.isDirectory(MAIN.resolve(other))) {
                    uses.get(s.pkg()).add(other);
                    why.putIfAbsent(s.pkg() + " -> " + other, s.path());
                }
            }
        }
        List<List<String>> cycles = new Tarjan(uses).cycles();
        StringBuilder text = new StringBuilder();
        for (List<String> c : cycles) {
            text.append(c).append(':');
            for (String a : c) {
                for (String b : uses.getOrDefault(a, Set.of())) {
                    if (c.contains(b)) {
                        text.append(' ').append(a).append(" -> ").append(b).append(" (").append(why.get(a + " -> " + b))
                                .append(')');
                    }
                }
            }
            text.append('\n');
        }
        assertTrue(cycles.isEmpty(), "packages that name each other, in a loop:\n" + text);
    }

    @Test
    void projectClassesAreImportedNotNamedInFull() throws IOException {
        List<String> found = new ArrayList<>();
        for (Source s : sources()) {
            String[] lines = s.withoutStrings().split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String l = lines[i].trim();
                if (!l.startsWith("import ") && !l.startsWith("package ") && FULL_CLASS_NAME.matcher(l).find()) {
                    found.add(s.path() + ":" + (i + 1) + ": " + l);
                }
            }
        }
        assertTrue(found.isEmpty(), "import these instead:\n" + String.join("\n", found));
    }

    @Test
    void aLibrarysRecipeImportsOnlyThePublicApiAndItsLibrary() throws IOException {
        List<String> found = new ArrayList<>();
        int files = 0;
        for (Source s : sources()) {
            List<String> allowed = LIBRARY_PACKAGES.get(s.pkg());
            if (allowed == null) {
                continue;
            }
            files++;
            Matcher m = IMPORT.matcher(s.code());
            while (m.find()) {
                String name = m.group(2);
                if (!name.startsWith("java.") && !name.startsWith("javax.") && !name.startsWith("io.lockchaos.api.")
                        && allowed.stream().noneMatch(name::startsWith)) {
                    found.add(s.path() + ": import " + name);
                }
            }
            Matcher project = PROJECT_NAME.matcher(s.withoutStrings().replaceAll("(?m)^package .*$", ""));
            while (project.find()) {
                if (!project.group(1).equals("api")) {
                    found.add(s.path() + ": names io.lockchaos." + project.group(1));
                }
            }
        }
        assertTrue(files >= LIBRARY_PACKAGES.size(), "each library's package has sources: " + files);
        assertTrue(found.isEmpty(), "a library's recipe is written against io.lockchaos.api and its library only:\n"
                + String.join("\n", found));
    }

    @Test
    void aServicesIdentityIsDecidedInItsOwnPackageOnly() throws IOException {
        Map<String, List<String>> found = new LinkedHashMap<>();
        for (Source s : sources()) {
            if (SERVICE_PACKAGES.contains(s.pkg()) || LIBRARY_PACKAGES.containsKey(s.pkg())) {
                continue;
            }
            String code = s.withoutStrings();
            Matcher m = IDENTITY.matcher(code);
            while (m.find()) {
                int line = (int) code.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
                found.computeIfAbsent(s.path(), k -> new ArrayList<>()).add(s.path() + ":" + line + ": " + m.group());
            }
        }
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : found.entrySet()) {
            int allowed = STILL_ALLOWED.getOrDefault(e.getKey(), 0);
            if (e.getValue().size() > allowed) {
                problems.add(e.getKey() + " decides on a service's identity " + e.getValue().size() + " times ("
                        + allowed + " allowed): ask LockServices, or move the decision into the service's package:\n  "
                        + String.join("\n  ", e.getValue()));
            }
        }
        for (Map.Entry<String, Integer> e : STILL_ALLOWED.entrySet()) {
            int now = found.getOrDefault(e.getKey(), List.of()).size();
            if (now < e.getValue()) {
                problems.add(e.getKey() + " now decides " + now + " times: lower its figure in STILL_ALLOWED to "
                        + now + " (from " + e.getValue() + ")");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** Strongly connected components of a graph, those of more than one vertex: its cycles. */
    private static final class Tarjan {
        private final Map<String, Set<String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final List<String> stack = new ArrayList<>();
        private final List<List<String>> out = new ArrayList<>();

        Tarjan(Map<String, Set<String>> edges) {
            this.edges = edges;
        }

        List<List<String>> cycles() {
            for (String v : edges.keySet()) {
                if (!index.containsKey(v)) {
                    visit(v);
                }
            }
            return out;
        }

        private void visit(String v) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.add(v);
            for (String w : edges.getOrDefault(v, Set.of())) {
                if (!index.containsKey(w)) {
                    visit(w);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (stack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
            }
            if (low.get(v).equals(index.get(v))) {
                List<String> component = new ArrayList<>();
                String w;
                do {
                    w = stack.remove(stack.size() - 1);
                    component.add(w);
                } while (!w.equals(v));
                if (component.size() > 1) {
                    out.add(component);
                }
            }
        }
    }
}
