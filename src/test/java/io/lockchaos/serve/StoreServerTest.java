package io.lockchaos.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.store.StoreIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreServerTest {
    @TempDir
    static Path tmp;
    static Path store;
    static StoreServer server;

    /** A store of the committed examples, plus one run in run's own layout with a latest link. */
    static Path exampleStore(Path into) throws IOException {
        Path s = into.resolve("store");
        copy(Path.of("histories/examples"), s.resolve("examples"));
        Path run = s.resolve("scenario-1-partition-ignore/20261201T120000");
        copy(Path.of("histories/examples/scenario-1-partition-ignore"), run);
        Files.setLastModifiedTime(run.resolve("history.jsonl"), FileTime.fromMillis(System.currentTimeMillis()
                + 60_000)); // the newest
        Files.createSymbolicLink(s.resolve("scenario-1-partition-ignore/latest"), run.getFileName());
        return s;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    @BeforeAll
    static void start() throws IOException {
        store = exampleStore(tmp);
        Files.writeString(tmp.resolve("secret.txt"), "SECRET-CONTENT");
        Files.createSymbolicLink(store.resolve("examples/escape"), tmp);
        // a run whose summary and test.json are links to a file outside the store
        Path linked = store.resolve("linked/20261201T000000");
        Files.createDirectories(linked);
        Files.copy(Path.of("histories/examples/double-grant/history.jsonl"), linked.resolve("history.jsonl"));
        Files.createSymbolicLink(linked.resolve("summary.txt"), tmp.resolve("secret.txt"));
        Files.createSymbolicLink(linked.resolve("test.json"), tmp.resolve("secret.json"));
        Files.writeString(tmp.resolve("secret.json"), "{\"name\": \"SECRET-CONTENT\", \"recipe\": \"SECRET-CONTENT\"}");
        // a dangling link where a history would be, and a folder nobody may read: the listing goes on
        Files.createDirectories(store.resolve("dangling/1"));
        Files.createSymbolicLink(store.resolve("dangling/1/history.jsonl"), tmp.resolve("gone.jsonl"));
        server = StoreServer.start(store, 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** A raw GET, so the path reaches the server exactly as written (no client normalises it). */
    static String get(int port, String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    @Test
    void theIndexListsEveryRunOnceNewestFirst() throws IOException {
        List<StoreIndex.StoredRun> runs = StoreIndex.scan(store);
        assertEquals(List.of("scenario-1-partition-ignore/20261201T120000"), runs.stream().limit(1)
                .map(StoreIndex.StoredRun::dir).toList(), "newest first, and latest is not listed twice");
        assertEquals(6, runs.size(), runs.toString());
        StoreIndex.StoredRun first = runs.get(0);
        assertEquals("invalid", first.verdict());
        assertEquals("reentrant-mutex", first.recipe());
        assertEquals(List.of("at 500ms isolate-client holder for 5000ms"), first.faults());
        assertTrue(first.anomalyKinds().contains("double-holder"), first.anomalyKinds().toString());
        assertEquals("1", first.seed());
        assertTrue(first.durationSeconds() > 5 && first.durationSeconds() < 60, "" + first.durationSeconds());

        String page = get(server.port(), "/");
        assertEquals(200, status(page));
        assertTrue(page.contains("6 of 6 runs"), page);
        assertFalse(page.contains("SECRET-CONTENT"), "a test.json linked from outside is not read: " + page);
        assertFalse(page.contains("id=\"corpus\""), "no corpus check yet");
        io.lockchaos.cli.Main.run("check", store.resolve("examples").toString(), "--out", store.toString());
        String checked = get(server.port(), "/");
        assertTrue(checked.contains("last corpus check of the store: <span class=\"invalid\">invalid</span>, 4 files"),
                checked);
        assertEquals(200, status(get(server.port(), "/files/check-index.json")));
        assertTrue(page.indexOf("scenario-1-partition-ignore/20261201T120000") < page.indexOf("examples/correct-rw"));
        for (String column : new String[] {"verdict", "recipe", "faults", "duration", "anomalies", "seed"}) {
            assertTrue(page.contains("<th>" + column + "</th>"), column);
        }
    }

    /** The hunts page lists each hunt's findings, linked to their reports, and escapes what a findings file says. */
    @Test
    void theHuntsPageListsEachHuntsFindings(@org.junit.jupiter.api.io.TempDir Path own) throws IOException {
        Path hunt = own.resolve("hunts/20261207T160000");
        Files.createDirectories(hunt);
        Files.writeString(hunt.resolve("findings.json"), "{\"runs\": 12, \"findings\": [{\"number\": 1,"
                + " \"known_bug\": \"CURATOR-621\", \"recipe\": \"rw\", \"anomalies\": [\"rw-conflict\"], \"faults\": []},"
                + " {\"number\": 2, \"known_bug\": null, \"recipe\": \"<script>x</script>\", \"anomalies\":"
                + " [\"double-holder\"], \"faults\": [\"kill\"]}, {\"number\": 3, \"known_bug\": null, \"by_design\":"
                + " \"session-ended-by-the-servers\", \"recipe\": \"mutex\", \"anomalies\": [\"double-holder\"],"
                + " \"faults\": [\"expire\"]}]}");
        Files.writeString(hunt.resolve("finding-1.md"), "# Finding 1: CURATOR-621\n");
        Files.createDirectories(own.resolve("hunts/20261207T150000"));
        Files.writeString(own.resolve("hunts/20261207T150000/findings.json"), "not json");
        try (StoreServer own2 = StoreServer.start(own, 0)) {
            String page = get(own2.port(), "/hunts");
            assertEquals(200, status(page));
            assertTrue(page.contains("<a href=\"/files/hunts/20261207T160000/finding-1.md\">finding 1</a>: <b>"
                    + "CURATOR-621</b> rw, rw-conflict under"), page);
            assertTrue(page.contains("<b>new</b> &lt;script&gt;x&lt;/script&gt;, double-holder under kill"), page);
            assertTrue(page.contains("<b>by design: session-ended-by-the-servers</b> mutex, double-holder under expire"),
                    page);
            assertTrue(!page.contains("20261207T150000"), "a findings file that is not JSON is left out");
            String report = get(own2.port(), "/files/hunts/20261207T160000/finding-1.md");
            assertTrue(report.contains("text/plain") && report.endsWith("# Finding 1: CURATOR-621\n"), report);
            assertTrue(get(own2.port(), "/").contains("<a href=\"/hunts\">hunts</a>"));
        }
    }

    /** A run that died says so, with the phase it was in and its error, instead of being listed unchecked. */
    @Test
    void aCrashedRunShowsWhyAsItsVerdict(@org.junit.jupiter.api.io.TempDir Path own) throws IOException {
        Path run = own.resolve("redis-gc-pause/20261203T000000");
        Files.createDirectories(run);
        Files.copy(Path.of("histories/examples/double-grant/history.jsonl"), run.resolve("history.jsonl"));
        io.lockchaos.store.RunDir.of(run).recordCrash("starting 3 local Redis instance(s)", "redis-server 1 exited");
        StoreIndex.StoredRun r = StoreIndex.scan(own).get(0);
        assertEquals("crashed", r.verdict());
        assertEquals("starting 3 local Redis instance(s): redis-server 1 exited", r.crash());
        try (StoreServer own2 = StoreServer.start(own, 0)) {
            String page = get(own2.port(), "/?verdict=crashed");
            assertTrue(page.contains("1 of 1 runs") && page.contains("crashed: starting 3 local Redis instance(s):"
                    + " redis-server 1 exited"), page);
            String one = get(own2.port(), "/run/redis-gc-pause/20261203T000000/");
            assertTrue(one.contains("<p class=\"crashed\">crashed: starting 3 local Redis instance(s)"), one);
        }
    }

    @Test
    void filtersByVerdictAndTestName() throws IOException {
        String valid = get(server.port(), "/?verdict=valid");
        assertTrue(valid.contains("1 of 6 runs") && valid.contains("correct-rw"), valid);
        assertFalse(valid.contains("data-verdict=\"invalid\""));
        String named = get(server.port(), "/?verdict=all&test=SCENARIO");
        assertTrue(named.contains("2 of 6 runs"), named);
        String both = get(server.port(), "/?verdict=invalid&test=double");
        assertTrue(both.contains("1 of 6 runs") && both.contains("examples/double-grant"), both);
    }

    @Test
    void aRunPageHasItsSummaryStoriesPlotsAndFiles() throws IOException {
        String page = get(server.port(), "/run/examples/scenario-1-partition-ignore/");
        assertEquals(200, status(page));
        assertTrue(page.contains("how the double holder of /lockchaos/lock-0 happened"), page);
        assertTrue(page.contains("<pre id=\"summary\">"), page);
        for (String f : new String[] {"timeline.html", "results.json", "summary.txt", "latency.png", "rate.png"}) {
            assertTrue(page.contains("/files/examples/scenario-1-partition-ignore/" + f), f);
        }
        String png = get(server.port(), "/files/examples/scenario-1-partition-ignore/rate.png");
        assertEquals(200, status(png));
        assertTrue(png.contains("Content-type: image/png"), png.substring(0, 200));
        assertEquals(404, status(get(server.port(), "/run/examples/")));
        assertEquals(404, status(get(server.port(), "/files/examples/double-grant/nothing.txt")));
    }

    @Test
    void nothingOutsideTheStoreIsServed() throws IOException {
        assertEquals(200, status(get(server.port(), "/files/examples/double-grant/summary.txt")));
        for (String path : new String[] {"/files/../secret.txt", "/files/%2e%2e/secret.txt",
            "/files/examples/..%2f..%2fsecret.txt", "/files/examples/%2E%2E/%2e%2e/secret.txt",
            "/files/./examples/double-grant/summary.txt", "/files//secret.txt", "/files/%2f" + tmp.resolve("secret.txt"),
            "/files/examples/escape/secret.txt", "/run/..", "/run/%2e%2e/", "/files/examples/%00",
            "/files/examples/double-grant/..%5c..%5csecret.txt", "/files/examples/escape%2fsecret.txt"}) {
            String r = get(server.port(), path);
            assertEquals(403, status(r), path + " -> " + r);
            assertFalse(r.contains("SECRET-CONTENT"), path);
        }
        // a raw backslash is refused by the HTTP server itself, before any path is built
        assertEquals(400, status(get(server.port(), "/files/examples/double-grant/..\\..\\secret.txt")));
        // a run page neither shows nor links a file that is a link out of the store
        String linked = get(server.port(), "/run/linked/20261201T000000/");
        assertEquals(200, status(linked));
        assertFalse(linked.contains("SECRET-CONTENT"), linked);
        assertFalse(linked.contains("/files/linked/20261201T000000/summary.txt"), linked);
        assertEquals(403, status(get(server.port(), "/files/linked/20261201T000000/summary.txt")));
        // through a link out, a missing file is refused like an existing one: no oracle for the world outside
        assertEquals(403, status(get(server.port(), "/files/examples/escape/no-such-file")));
        // double encoding is a literal name, not a way out
        assertEquals(404, status(get(server.port(), "/files/%252e%252e/secret.txt")));
        // only GET and HEAD are answered
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(405, status(new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8)));
        }
    }

    /** Every answer says that only the pages' own scripts may run, by their hashes, and nothing is framed (#42). */
    @Test
    void everyAnswerCarriesAPolicyThatRunsOnlyThePagesOwnScripts() throws IOException {
        for (String path : List.of("/", "/run/examples/double-grant/", "/files/examples/double-grant/timeline.html",
                "/files/examples/double-grant/summary.txt", "/files/nothing")) {
            String r = get(server.port(), path);
            String csp = r.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT)
                    .startsWith("content-security-policy:")).findFirst().orElse("");
            assertTrue(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"), path + ": " + csp);
            assertFalse(csp.replaceAll("style-src 'unsafe-inline'", "").contains("unsafe"), path + ": " + csp);
        }
        String policy = Csp.POLICY;
        String timeline = Files.readString(store.resolve("examples/double-grant/timeline.html"));
        List<String> scripts = Csp.inlineScripts(timeline);
        assertEquals(2, scripts.size(), "the error catcher and the page's script; the data is not run");
        for (String s : scripts) {
            assertTrue(policy.contains("'sha256-" + Csp.sha256(s) + "'"), "a committed timeline's script is allowed");
        }
        assertTrue(policy.contains("'sha256-" + Csp.sha256(Pages.INDEX_SCRIPT) + "'"));
        assertFalse(policy.contains("'sha256-" + Csp.sha256("alert(1)") + "'"));
    }

    @Test
    void aPageElsewhereRebindingItsNameToLoopbackReadsNothing() throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: evil.example:8080\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String r = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(403, status(r));
            assertFalse(r.contains("examples/"), r);
        }
        assertTrue(StoreServer.localHost("127.0.0.1:8080") && StoreServer.localHost("localhost")
                && StoreServer.localHost("LOCALHOST:1") && StoreServer.localHost("[::1]:80"));
        assertFalse(StoreServer.localHost("127.0.0.1.evil.example") || StoreServer.localHost("localhost.evil")
                || StoreServer.localHost("[::1].x"));
    }

    @Test
    void itListensOnLoopbackOnly() throws IOException {
        assertTrue(server.url().startsWith("http://127.0.0.1:"));
        java.net.InetAddress other = null;
        for (var nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            for (var a : java.util.Collections.list(nic.getInetAddresses())) {
                if (!a.isLoopbackAddress() && a instanceof java.net.Inet4Address) {
                    other = a;
                }
            }
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(other != null, "no non-loopback address on this machine");
        java.net.InetAddress addr = other;
        assertTrue(assertConnectRefused(addr, server.port()), "reachable on " + addr);
    }

    private static boolean assertConnectRefused(java.net.InetAddress a, int port) {
        try (Socket s = new Socket()) {
            s.connect(new java.net.InetSocketAddress(a, port), 2000);
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
