package io.lockchaos.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lockchaos.prop.Gen;
import io.lockchaos.prop.Property;
import io.lockchaos.prop.Shrinker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} under hostile clients and a hostile store (#42): a folder swapped for a link between check and read,
 * clients that send half a request and wait, and a fuzz of paths, methods, headers and abandoned connections. Every
 * answer keeps the store's secrets, and the pages keep answering.
 */
class StoreServerHostileTest {
    private static final String SECRET = "SECRET-CONTENT";
    private static final Set<Integer> ANSWERS = Set.of(200, 400, 403, 404, 405, 413, 414, 431, 501);

    @TempDir
    static Path tmp;
    static Path store;
    static StoreServer server;

    @BeforeAll
    static void start() throws IOException {
        store = StoreServerTest.exampleStore(tmp);
        Files.writeString(tmp.resolve("secret.txt"), SECRET);
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("summary.txt"), SECRET);
        Files.createSymbolicLink(store.resolve("examples/escape"), tmp);
        Path race = Files.createDirectories(store.resolve("race/r1"));
        Files.writeString(race.resolve("summary.txt"), "INSIDE");
        server = StoreServer.start(store, 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /**
     * A folder of the store swapped for a link to a folder outside, again and again, while the same file is asked
     * for: what was checked must be what is read (before #42, 208 of 3,000 answers were the file outside).
     */
    @Test
    void aFolderSwappedForALinkWhileServedNeverLeaksTheFileOutside() throws Exception {
        Path real = store.resolve("race/r1");
        Path parked = store.resolve("race/r1.parked");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger swaps = new AtomicInteger();
        Thread swapper = new Thread(() -> {
            try {
                while (running.get()) {
                    Files.move(real, parked, StandardCopyOption.ATOMIC_MOVE);
                    Files.createSymbolicLink(real, tmp.resolve("outside"));
                    Thread.onSpinWait();
                    Files.delete(real);
                    Files.move(parked, real, StandardCopyOption.ATOMIC_MOVE);
                    swaps.incrementAndGet();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "swapper");
        swapper.start();
        int inside = 0;
        try {
            for (int i = 0; i < 2000; i++) {
                String r = StoreServerTest.get(server.port(), "/files/race/r1/summary.txt");
                assertFalse(r.contains(SECRET), "request " + i + " read the file outside the store: " + r);
                inside += r.contains("INSIDE") ? 1 : 0;
            }
        } finally {
            running.set(false);
            swapper.join();
        }
        System.out.printf("swap race: 2000 requests, %d answered from inside, %d swaps, none from outside%n", inside,
                swaps.get());
        assertTrue(swaps.get() > 100, "the folder was swapped while served: " + swaps.get());
        assertTrue(inside > 0, "the file inside was still served between swaps");
    }

    /**
     * Clients that send half a request and wait held all four threads of serve: no page answered for minutes. Now
     * others are answered meanwhile, and the half requests are closed after the time limit.
     */
    @Test
    void halfRequestsNeitherStopThePagesNorStayOpen() throws Exception {
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                Socket s = new Socket("127.0.0.1", server.port());
                s.getOutputStream().write("GET / HTTP/1.1\r\nHost: 127.0".getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                slow.add(s);
            }
            Thread.sleep(300); // each has reached a thread of the server
            String page = StoreServerTest.get(server.port(), "/");
            assertTrue(page.startsWith("HTTP/1.1 200"), page.lines().findFirst().orElse(""));
            assertTrue(page.contains("scenario-1-partition-ignore"));
            for (Socket s : slow) {
                // closed by the server after HttpLimits.REQUEST_SECONDS (its timer checks every second)
                s.setSoTimeout((io.lockchaos.proxy.HttpLimits.REQUEST_SECONDS + 20) * 1000);
                try {
                    assertEquals(-1, s.getInputStream().read(), "a half request gets no answer, only an end");
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("a half request was still open after "
                            + (io.lockchaos.proxy.HttpLimits.REQUEST_SECONDS + 20) + " s");
                } catch (IOException e) {
                    // reset: closed too
                }
            }
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }

    /** A request as the fuzz sends it: method, raw path, Host ("" for none), extra header lines, how it is sent. */
    record Request(String method, String path, String host, List<String> headers, Sending sending) {
        String text() {
            StringBuilder s = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
            if (!host.isEmpty()) { // none at all, as HTTP/1.0 sends
                s.append("Host: ").append(host).append("\r\n");
            }
            headers.forEach(h -> s.append(h).append("\r\n"));
            return s.append("Connection: close\r\n\r\n").toString();
        }
    }

    /** Whole, or cut off and abandoned halfway. */
    enum Sending { WHOLE, ABANDONED }

    private static final String[] SEGMENTS = {"..", ".", "%2e%2e", "%2E", "%2e", "examples", "double-grant",
        "summary.txt", "timeline.html", "escape", "secret.txt", "%00", "%2f", "%5c", "latest", "race", "r1",
        "scenario-1-partition-ignore", "%252e%252e", "\u00e9", "%ff%fe", ";", "a".repeat(300), "..%2f..", "~",
        "%2e%2e%2fsecret.txt", "", "results.json", "history.jsonl"};

    static Gen<Request> requests() {
        Gen<String> path = r -> {
            StringBuilder p = new StringBuilder(Gen.oneOf("/files/", "/run/", "/", "/suites", "//", "/files",
                    "/FILES/").generate(r));
            int n = r.nextInt(0, 6);
            for (int i = 0; i < n; i++) {
                p.append(i == 0 ? "" : Gen.oneOf("/", "/", "/", "%2f", "\\").generate(r))
                        .append(SEGMENTS[r.nextInt(SEGMENTS.length)]);
            }
            if (r.nextInt(8) == 0) {
                p.append(Gen.oneOf("?verdict=invalid", "?test=%3Cscript%3E", "?x", "#frag", "?&&=").generate(r));
            }
            return p.toString();
        };
        Gen<List<String>> headers = r -> {
            List<String> h = new ArrayList<>();
            int n = r.nextInt(0, 3);
            for (int i = 0; i < n; i++) {
                h.add(Gen.oneOf("X-Junk: " + "x".repeat(20_000), "Range: bytes=0-10", "Content-Length: 5",
                        "Transfer-Encoding: chunked", "Expect: 100-continue", "Host: evil.example",
                        "X-Forwarded-For: 1.2.3.4", "Cookie: a=b").generate(r));
            }
            return h;
        };
        return r -> new Request(Gen.oneOf("GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE",
                "CONNECT", "get", "G\u00c9T").generate(r), path.generate(r),
                Gen.oneOf("127.0.0.1", "localhost:8080", "[::1]", "evil.example", "127.0.0.1.evil.example", "")
                        .generate(r), headers.generate(r), Gen.oneOf(Sending.WHOLE, Sending.WHOLE, Sending.WHOLE,
                        Sending.ABANDONED).generate(r));
    }

    /** Fewer headers, then a path with fewer segments, then sent whole. */
    static Shrinker<Request> shrinker() {
        return q -> {
            Stream.Builder<Request> s = Stream.builder();
            if (!q.headers().isEmpty()) {
                s.add(new Request(q.method(), q.path(), q.host(), q.headers().subList(1, q.headers().size()),
                        q.sending()));
            }
            int cut = q.path().lastIndexOf('/');
            if (cut > 0) {
                s.add(new Request(q.method(), q.path().substring(0, cut), q.host(), q.headers(), q.sending()));
            }
            if (q.sending() != Sending.WHOLE) {
                s.add(new Request(q.method(), q.path(), q.host(), q.headers(), Sending.WHOLE));
            }
            return s.build();
        };
    }

    /**
     * Random requests: every answer is a known status (never 500), none carries a secret from outside the store,
     * and the index still answers after all of them, the abandoned ones included.
     */
    @Test
    void fuzzedRequestsGetKnownAnswersAndNoSecret() throws IOException {
        Property<Request> p = Property.forAll("serve answers hostile requests", requests(), shrinker())
                .describedBy(q -> q.text().replace("\r\n", "\\r\\n").substring(0, Math.min(400,
                        q.text().length() + 0)))
                .casesFromSystem(400, 1.0).seed(System.nanoTime());
        Property.Outcome<Request> o = p.check(q -> {
            String answer = send(q);
            if (answer.contains(SECRET)) {
                throw new AssertionError("a secret from outside the store: " + answer);
            }
            if (q.sending() == Sending.WHOLE && !answer.isEmpty()) {
                String last = answer.replaceAll("(?s)^(HTTP/1\\.1 1\\d\\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+", "");
                int status = Integer.parseInt(last.substring(9, 12)); // after any interim 1xx answer
                if (!ANSWERS.contains(status)) {
                    throw new AssertionError("status " + status + ": " + answer.lines().limit(3).toList());
                }
            }
            return true;
        });
        System.out.println("serve fuzz: " + o.casesRun() + " requests, seed " + o.seed() + " (replay with -D"
                + Property.SEED_PROPERTY + "=" + o.seed() + ")");
        String index = StoreServerTest.get(server.port(), "/");
        assertTrue(index.startsWith("HTTP/1.1 200"), index.lines().findFirst().orElse(""));
    }

    private static String send(Request q) {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            byte[] bytes = q.text().getBytes(StandardCharsets.UTF_8);
            if (q.sending() == Sending.ABANDONED) {
                out.write(bytes, 0, bytes.length / 2);
                out.flush();
                return "";
            }
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readNBytes(4 << 20), StandardCharsets.UTF_8);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer in 30 s");
        } catch (IOException e) {
            return ""; // the server closed or reset a request it would not read: an answer too
        }
    }
}
