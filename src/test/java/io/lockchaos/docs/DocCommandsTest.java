package io.lockchaos.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every shell command of README.md and docs/*.md (fenced {@code sh} blocks) exactly as written, from the root of
 * a working copy laid out as a user's clone is (the repository's files, the built {@code target/}, the default store
 * {@code histories/}), in the order the pages give them, and checks what the text promises about each. The promise
 * is an HTML comment just before the block, one entry per command separated by {@code |}: {@code exit N} (default
 * 0; {@code exit N or M} for a command whose outcome is either, as a run under random faults reaching a verdict), {@code prints "TEXT"}, {@code until "TEXT"} (a command that serves until stopped: it must print TEXT, then it is
 * stopped), or {@code not run: WHY}. A block without a comment promises exit 0 for each command.
 *
 * <p>It is one of the slow tier's classes, so that its minutes overlap the other slow tests; everything it runs writes
 * only into its own copy (the build included), never into the build the other test JVMs read. The pages named in
 * {@link #ELSEWHERE} are other classes': {@link MutationDocCommandsTest}'s, in the slow tier too, and those of the
 * documented catalogue, the third tier ({@code mvn -B -Pcatalogue verify}; tagged {@code catalogue}): {@link
 * EtcdDocCommandsTest}, {@link PostgresDocCommandsTest}, {@link ServerDocCommandsTest}, {@link CiDocCommandsTest},
 * {@link SshDocCommandsTest}, {@link FaultsDocCommandsTest}, {@link MavenDocCommandsTest}, {@link
 * LibrariesDocCommandsTest} and {@link DatabaseDocCommandsTest}. Their runs of workload files, the soak, the SSH lab and the user's Maven project were
 * 781 of the slow tier's 1,793 s of CPU (2026-12-06), and a test of its own proves each mechanism they use.
 */
@Tag("slow") // starts servers, agents, containers or child processes
class DocCommandsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Pattern DIRECTIVE = Pattern.compile("<!-- doc-test: (.*) -->");
    private static final Pattern QUOTED = Pattern.compile("(prints|until) \"([^\"]*)\"");
    private static final Duration LIMIT = Duration.ofMinutes(5);
    /**
     * The pages another class runs, each in its own test JVM's time, so that no class runs for much longer than the
     * others (a tier ends when its longest fork does): the pages of one lock service's workloads, the CI page
     * (its soak runs for minutes), the SSH page (run alone with {@code -Dtest='*Ssh*'}), the fault catalogue, the
     * user's lock page (it builds lockchaos and the example project with Maven), the mutation-testing page and the lock
     * libraries' page (it resolves their releases and compares two of them). Every
     * page named here must exist; pages depend only on commands of their own page.
     */
    static final List<String> ETCD_PAGES = List.of("etcd.md");
    static final List<String> POSTGRES_PAGES = List.of("postgres.md");
    static final List<String> SERVER_PAGES = List.of("redis.md", "zookeeper.md", "hunting.md");
    static final List<String> CI_PAGES = List.of("ci.md");
    static final List<String> SSH_PAGES = List.of("ssh.md");
    static final List<String> FAULTS_PAGES = List.of("faults.md");
    static final List<String> MAVEN_PAGES = List.of("your-own-lock.md");
    static final List<String> MUTATION_PAGES = List.of("property-testing.md");
    static final List<String> LIBRARY_PAGES = List.of("libraries.md");
    static final List<String> DATABASE_PAGES = List.of("database.md");
    private static final List<List<String>> ELSEWHERE = List.of(ETCD_PAGES, POSTGRES_PAGES, SERVER_PAGES, CI_PAGES,
            SSH_PAGES, FAULTS_PAGES, MAVEN_PAGES, MUTATION_PAGES, LIBRARY_PAGES, DATABASE_PAGES);

    /** What the text promises about one command. */
    record Promise(Integer exit, List<String> prints, String until, String notRun, Integer orExit) {
        Promise(Integer exit, List<String> prints, String until, String notRun) {
            this(exit, prints, until, notRun, null);
        }

        boolean exits(int code) {
            return exit == code || orExit != null && orExit == code;
        }

        static Promise parse(String entry) {
            String e = entry.trim();
            if (e.startsWith("not run:")) {
                return new Promise(null, List.of(), null, e.substring("not run:".length()).trim());
            }
            Integer exit = 0;
            Integer orExit = null;
            Matcher x = Pattern.compile("exit (\\d+)(?: or (\\d+))?").matcher(e);
            if (x.find()) {
                exit = Integer.parseInt(x.group(1));
                orExit = x.group(2) == null ? null : Integer.parseInt(x.group(2));
            }
            List<String> prints = new ArrayList<>();
            String until = null;
            Matcher q = QUOTED.matcher(e);
            while (q.find()) {
                if (q.group(1).equals("until")) {
                    until = q.group(2);
                    exit = null;
                } else {
                    prints.add(q.group(2));
                }
            }
            return new Promise(until != null ? null : exit, prints, until, null, until != null ? null : orExit);
        }
    }

    /** A command as written, where it is written, and its promise. */
    record Command(Path page, int line, String text, Promise promise) {
        String where() {
            return ROOT.relativize(page) + ":" + line;
        }
    }

    /** The pages in the order a reader meets them: the README, then the manual. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> s = Files.list(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    static List<Command> commands(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        List<Command> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).equals("```sh")) {
                continue;
            }
            String before = i > 0 ? lines.get(i - 1) : "";
            Matcher d = DIRECTIVE.matcher(before);
            String[] entries = d.matches() ? d.group(1).split("\\|") : new String[0];
            List<Command> block = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            int start = -1;
            for (i = i + 1; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
                String l = lines.get(i);
                if (text.isEmpty() && (l.isBlank() || l.startsWith("#"))) {
                    continue;
                }
                if (text.isEmpty()) {
                    start = i + 1;
                }
                text.append(l).append('\n');
                if (!l.endsWith("\\")) {
                    block.add(new Command(page, start, text.toString().trim(), null));
                    text.setLength(0);
                }
            }
            assertTrue(entries.length == 0 || entries.length == block.size(), page + ":" + (start) + ": the doc-test"
                    + " comment has " + entries.length + " entries for " + block.size() + " commands");
            for (int k = 0; k < block.size(); k++) {
                Command c = block.get(k);
                out.add(new Command(c.page(), c.line(), c.text(), entries.length == 0 ? new Promise(0, List.of(),
                        null, null) : Promise.parse(entries[k])));
            }
        }
        return out;
    }

    @Test
    void everyDocumentedCommandRunsAsWritten() throws Exception {
        runAll(pages().stream().filter(p -> ELSEWHERE.stream()
                .noneMatch(names -> names.contains(p.getFileName().toString()))).toList(), 10);
    }

    /**
     * Runs the commands of the pages named (file names under docs/) in a working copy of their own: another test
     * class's share of the pages, in its own test JVM's time.
     */
    static void runPages(List<String> names, int least) throws Exception {
        List<Path> pages = pages().stream().filter(p -> names.contains(p.getFileName().toString())).toList();
        assertEquals(names.size(), pages.size(), "every page named is there: " + names + " in " + pages);
        runAll(pages, least);
    }

    /** Runs the commands of {@code pages} in a working copy of its own; at least {@code least} of them run. */
    static void runAll(List<Path> pages, int least) throws Exception {
        Path work = workingCopy();
        try {
            runAll(work, pages, least);
        } finally {
            delete(work);
        }
    }

    private static void runAll(Path work, List<Path> pages, int least) throws Exception {
        List<String> failures = new ArrayList<>();
        int ran = 0;
        List<String> marked = new ArrayList<>();
        for (Path page : pages) {
            for (Command c : commands(page)) {
                if (c.promise().notRun() != null) {
                    marked.add(c.where() + " (" + c.promise().notRun() + ")");
                    continue;
                }
                ran++;
                long start = System.nanoTime();
                String failure = run(work, c);
                System.out.printf("doc command %s (%.1f s): %s: %s%n", c.where(), (System.nanoTime() - start) / 1e9,
                        failure == null ? "as promised" : failure, c.text().lines().findFirst().orElse(""));
                if (failure != null) {
                    failures.add(c.where() + ": " + failure + ": " + c.text());
                }
            }
        }
        System.out.println("doc commands: " + ran + " run, " + marked.size() + " marked not run: " + marked);
        assertTrue(ran >= least, "the pages hold fewer runnable commands than expected: " + ran);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** Deletes the working copy. */
    private static void delete(Path work) throws IOException {
        try (Stream<Path> s = Files.walk(work)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The commands the README says .ci/run runs, it must run as written. */
    @Test
    void commandsMarkedAsRunByCiAreInIt() throws Exception {
        String ci = Files.readString(ROOT.resolve(".ci/run"));
        for (Command c : commands(ROOT.resolve("README.md"))) {
            if (c.promise().notRun() != null && c.promise().notRun().contains(".ci/run runs it")) {
                // as written: the whole line, or the line with its output redirected ("mvn -B verify 2>&1 | tee")
                assertTrue(ci.lines().map(String::trim).anyMatch(l -> l.equals(c.text())
                        || l.startsWith(c.text() + " 2>&1")), ".ci/run does not run '" + c.text() + "' as written");
            }
        }
        assertEquals(2, commands(ROOT.resolve("README.md")).stream().filter(c -> c.line() < 30).count(),
                "the README's set-up has exactly two commands");
    }

    /**
     * A fresh folder laid out as a user's clone after the first set-up command: the repository's files and the built
     * target/, copied, so that the runs and check folders the commands write stay out of the repository and the
     * build a command makes (Your own lock has the user run {@code mvn install}) replaces nothing the other test JVM
     * is reading. The compiler's record of what it built ({@code target/maven-status}) is copied with the copy's own
     * paths, so that such a build finds the classes up to date, as it would in the clone they were built in (with the
     * original paths it compiled all 476 classes again: about 25 s of CPU).
     */
    private static Path workingCopy() throws IOException {
        Path work = Files.createTempDirectory("lockchaos-docs");
        for (String dir : List.of("bin", "checker", "docker", "docs", "workloads", "histories/examples", ".ci", ".mvn",
                "src", "examples")) {
            copyTree(ROOT.resolve(dir), work.resolve(dir));
        }
        for (String file : List.of("README.md", "pom.xml")) {
            Files.copy(ROOT.resolve(file), work.resolve(file));
        }
        Files.createDirectories(work.resolve("target"));
        for (String built : List.of("lockchaos.jar", "lockchaos.jsa", "classes", "test-classes", "maven-status")) {
            if (Files.exists(ROOT.resolve("target").resolve(built))) {
                copyTree(ROOT.resolve("target").resolve(built), work.resolve("target").resolve(built));
            }
        }
        relocateBuildRecord(work.resolve("target/maven-status"), ROOT, work);
        return work;
    }

    /** Rewrites the source and class paths the compiler plugin recorded under {@code from} to the same under {@code to}. */
    static void relocateBuildRecord(Path status, Path from, Path to) throws IOException {
        if (!Files.isDirectory(status)) {
            return;
        }
        String prefix = from.toString() + "/";
        try (Stream<Path> s = Files.walk(status)) {
            for (Path lst : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".lst"))::iterator) {
                java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(lst);
                List<String> lines = Files.readAllLines(lst, StandardCharsets.UTF_8).stream()
                        .map(l -> l.startsWith(prefix) ? to + "/" + l.substring(prefix.length()) : l).toList();
                Files.write(lst, lines, StandardCharsets.UTF_8);
                Files.setLastModifiedTime(lst, mtime);
            }
        }
    }

    /** Copies a folder as a clone has it: without the build output of the example projects. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s.filter(p -> !from.relativize(p).toString().matches("(.*/)?target(/.*)?"))
                    ::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(t);
                } else if (Files.isSymbolicLink(p)) {
                    Files.createSymbolicLink(t, Files.readSymbolicLink(p));
                } else {
                    Files.copy(p, t, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** Runs one command as a user's shell would; returns null when it kept its promise, else what went wrong. */
    private static String run(Path work, Command c) throws Exception {
        Path log = Files.createTempFile("lockchaos-doc-command", ".log");
        // The text is a shell command line, as a user types it: a shell runs it (its own argument array)
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", c.text()).directory(work.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().put("LOCKCHAOS_PARENT_PID", Long.toString(ProcessHandle.current().pid()));
        Process p = pb.start();
        try {
            if (c.promise().until() != null) {
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (p.isAlive() && System.nanoTime() < deadline
                        && !Files.readString(log).contains(c.promise().until())) {
                    Thread.sleep(100);
                }
                String out = Files.readString(log);
                return out.contains(c.promise().until()) ? null
                        : "did not print '" + c.promise().until() + "' within 60 s: " + tail(out);
            }
            if (!p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                return "still running after " + LIMIT.toMinutes() + " min: " + tail(Files.readString(log));
            }
            String out = Files.readString(log);
            if (!c.promise().exits(p.exitValue())) {
                return "exit " + p.exitValue() + ", promised " + c.promise().exit() + (c.promise().orExit() == null
                        ? "" : " or " + c.promise().orExit()) + ": " + tail(out);
            }
            for (String s : c.promise().prints()) {
                if (!out.contains(s)) {
                    return "did not print '" + s + "': " + tail(out);
                }
            }
            return null;
        } finally {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            Files.deleteIfExists(log);
        }
    }

    private static String tail(String out) {
        List<String> l = out.lines().toList();
        return String.join(" / ", l.subList(Math.max(0, l.size() - 6), l.size()));
    }
}
