package io.lockchaos.serve;

import io.lockchaos.proxy.HttpLimits;
import io.lockchaos.store.RunDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.lockchaos.store.StoreIndex;
import io.lockchaos.store.StoreIndex.StoredRun;
import io.lockchaos.suite.Trends;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The store in a browser, as Jepsen's {@code serve} does it: a page listing every stored run (newest first, filtered
 * by verdict and test name), a page per run (summary, stories, plots, links) and the run's own files. It binds
 * 127.0.0.1 only and serves nothing outside the store root: a path with a {@code ..} or {@code .} segment (after
 * percent-decoding), an empty segment or a link that leads out of the root is refused with 403, and a file is read
 * through the folders it was checked in ({@link StoreFiles}). Slow clients get {@link HttpLimits}' time limits and
 * cannot hold every thread; files are streamed, not read whole; every answer carries a Content-Security-Policy that
 * lets only the pages' own scripts run (by their hashes), so a string of a hostile history can run nothing.
 */
public final class StoreServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most of a summary a run's page shows, and of results.json or check-index.json it reads. */
    private static final int SMALL_FILE = 4 << 20;
    private static final int JSON_LIMIT = 64 << 20;
    private static final java.util.regex.Pattern LOCAL_HOST = java.util.regex.Pattern.compile(
            "(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]{1,5})?", java.util.regex.Pattern.CASE_INSENSITIVE);
    private static final Map<String, String> TYPES = Map.ofEntries(Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("json", "application/json"), Map.entry("jsonl", "text/plain; charset=utf-8"),
            Map.entry("txt", "text/plain; charset=utf-8"), Map.entry("log", "text/plain; charset=utf-8"),
            Map.entry("png", "image/png"), Map.entry("svg", "image/svg+xml"), Map.entry("xml", "application/xml"),
            Map.entry("edn", "text/plain; charset=utf-8"), Map.entry("cfg", "text/plain; charset=utf-8"),
            Map.entry("md", "text/plain; charset=utf-8"));

    /**
     * Threads that answer requests. The JDK server reads a request on one of them, so each slow client holds one for
     * up to {@link HttpLimits#REQUEST_SECONDS}: with four, four such clients stopped every page.
     */
    static final int THREADS = 32;

    private final Path root;
    private final Path realRoot;
    private final StoreFiles files;
    private final HttpServer server;
    private final ExecutorService pool;

    private StoreServer(Path root, Path realRoot, HttpServer server, ExecutorService pool) {
        this.root = root.toAbsolutePath().normalize();
        this.realRoot = realRoot;
        this.files = new StoreFiles(realRoot);
        this.server = server;
        this.pool = pool;
    }

    /**
     * Serves {@code root} on 127.0.0.1:{@code port} ({@code 0} picks a free port) until {@link #close}.
     *
     * @throws IOException when the root is not a folder or the port cannot be bound
     */
    public static StoreServer start(Path root, int port) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException(root + ": no such folder (a store is where run writes, histories/ by default)");
        }
        Path realRoot = root.toAbsolutePath().normalize().toRealPath();
        HttpLimits.apply();
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "lockchaos-serve");
            t.setDaemon(true);
            return t;
        });
        StoreServer s = new StoreServer(root, realRoot, http, pool);
        http.createContext("/", s::handle);
        http.setExecutor(pool);
        http.start();
        return s;
    }

    /** The bound port. */
    public int port() {
        return server.getAddress().getPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port() + "/";
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
                send(ex, 405, "text/plain; charset=utf-8", "only GET\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (!localHost(ex.getRequestHeaders().getFirst("Host"))) {
                // a page elsewhere whose name was rebound to 127.0.0.1 sends its own name: it reads nothing here
                send(ex, 403, "text/plain; charset=utf-8", "refused: not a local host name\n"
                        .getBytes(StandardCharsets.UTF_8));
                return;
            }
            String path = ex.getRequestURI().getPath();
            if (path.equals("/")) {
                send(ex, 200, TYPES.get("html"), Pages.index(StoreIndex.scan(root), query(ex), corpusIndex())
                        .getBytes(StandardCharsets.UTF_8));
            } else if (path.equals("/suites")) {
                send(ex, 200, TYPES.get("html"), Pages.suites(Trends.of(root.resolve("suite"),
                        null)).getBytes(StandardCharsets.UTF_8));
            } else if (path.equals("/hunts")) {
                send(ex, 200, TYPES.get("html"), Pages.hunts(hunts()).getBytes(StandardCharsets.UTF_8));
            } else if (path.startsWith("/run/")) {
                Path dir = inside(ex, path.substring("/run/".length()).replaceAll("/$", ""));
                if (dir != null) {
                    StoredRun run = StoreIndex.run(root, dir);
                    if (run == null) {
                        notFound(ex);
                        return;
                    }
                    send(ex, 200, TYPES.get("html"), Pages.run(run, dir, this::contained,
                            f -> read(f, SMALL_FILE), stories(dir))
                            .getBytes(StandardCharsets.UTF_8));
                }
            } else if (path.startsWith("/files/")) {
                String rel = path.substring("/files/".length());
                if (inside(ex, rel) != null) {
                    sendFile(ex, rel);
                }
            } else {
                notFound(ex);
            }
        } catch (IOException | RuntimeException e) {
            try {
                send(ex, 500, "text/plain; charset=utf-8", ("error: " + e.getMessage() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            } catch (IOException ignored) {
                // the client went away
            }
        }
    }

    /**
     * The file or folder {@code rel} names inside the store, or null after answering 403 when it would leave it.
     * {@code rel} is already percent-decoded (so {@code %2e%2e} arrives as {@code ..}).
     */
    private Path inside(HttpExchange ex, String rel) throws IOException {
        boolean bad = rel.isEmpty() || rel.indexOf('\0') >= 0 || rel.startsWith("/") || rel.indexOf('\\') >= 0;
        for (String segment : rel.split("/", -1)) {
            bad |= segment.isEmpty() || segment.equals(".") || segment.equals("..");
        }
        Path p = null;
        if (!bad) {
            try {
                p = root.resolve(rel).normalize();
                bad = !p.startsWith(root) || !realPathInside(p);
            } catch (InvalidPathException e) {
                bad = true;
            }
        }
        if (bad) {
            send(ex, 403, "text/plain; charset=utf-8", "refused: outside the store\n".getBytes(StandardCharsets.UTF_8));
            return null;
        }
        return p;
    }

    /**
     * Whether {@code p}, or the deepest part of it that exists, really lies inside the store once links are resolved:
     * a path through a link that leads out is refused whether or not its target exists, so the answer tells nothing
     * about the world outside.
     */
    private boolean realPathInside(Path p) throws IOException {
        Path q = p;
        while (q != null && !Files.exists(q, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            q = q.getParent();
        }
        if (q == null) {
            return false;
        }
        try {
            return q.toRealPath().startsWith(realRoot);
        } catch (IOException e) {
            return false; // a dangling link: it leads nowhere we serve
        }
    }

    /** Whether {@code f} is a regular file that really lies inside the store: what the pages may read and link. */
    boolean contained(Path f) {
        try {
            return Files.isRegularFile(f) && f.toRealPath().startsWith(realRoot);
        } catch (IOException e) {
            return false;
        }
    }

    /** A small file of the store named by its path below the root, read through {@link StoreFiles}; or null. */
    private byte[] read(Path f, int limit) {
        Path rel = root.relativize(f.toAbsolutePath().normalize());
        return rel.startsWith("..") ? null : files.read(realRoot.resolve(rel), limit);
    }

    /** Whether a Host header names this machine's loopback (or is absent, as in HTTP/1.0). */
    static boolean localHost(String host) {
        if (host == null) {
            return true;
        }
        return LOCAL_HOST.matcher(host).matches();
    }

    /**
     * The store's hunts ({@code hunts/TIME/findings.json}), newest first, each by its folder's name; a findings file
     * that is too big or not JSON is left out.
     */
    private Map<String, JsonNode> hunts() throws IOException {
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        Path dir = root.resolve("hunts");
        if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        List<Path> folders;
        try (java.util.stream.Stream<Path> list = Files.list(dir)) {
            folders = list.sorted(java.util.Comparator.reverseOrder()).limit(200).toList();
        }
        for (Path h : folders) {
            byte[] b = read(h.resolve("findings.json"), SMALL_FILE);
            if (b != null) {
                try {
                    out.put(h.getFileName().toString(), JSON.readTree(b));
                } catch (IOException e) {
                    // not a hunt's findings: left out
                }
            }
        }
        return out;
    }

    /** The store's check-index.json (written by {@code check STORE}), or null when there is none. */
    private JsonNode corpusIndex() {
        byte[] b = read(root.resolve("check-index.json"), JSON_LIMIT);
        if (b == null) {
            return null;
        }
        try {
            return JSON.readTree(b);
        } catch (IOException e) {
            return null;
        }
    }

    private List<JsonNode> stories(Path dir) {
        byte[] b = read(RunDir.of(dir).results(), JSON_LIMIT);
        if (b == null) {
            return List.of();
        }
        try {
            JsonNode r = JSON.readTree(b);
            List<JsonNode> out = new java.util.ArrayList<>();
            if (r.has("stories")) {
                r.get("stories").forEach(out::add);
            }
            return out;
        } catch (IOException e) {
            return List.of();
        }
    }

    private static Map<String, String> query(HttpExchange ex) {
        Map<String, String> q = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    q.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return q;
    }

    private static void notFound(HttpExchange ex) throws IOException {
        send(ex, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
    }

    /** Streams a file of the store: what is sent is the file that was opened inside it, never read whole. */
    private void sendFile(HttpExchange ex, String rel) throws IOException {
        try (StoreFiles.Opened f = files.open(List.of(rel.split("/")))) {
            if (f == null) {
                notFound(ex);
                return;
            }
            String name = rel.substring(rel.lastIndexOf('/') + 1);
            String ext = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : "";
            headers(ex, TYPES.getOrDefault(ext.toLowerCase(Locale.ROOT), "application/octet-stream"));
            boolean head = ex.getRequestMethod().equals("HEAD");
            ex.sendResponseHeaders(200, head ? -1 : f.size() == 0 ? -1 : f.size());
            if (!head) {
                try (OutputStream out = ex.getResponseBody()) {
                    java.io.InputStream in = java.nio.channels.Channels.newInputStream(f.channel());
                    byte[] buf = new byte[64 * 1024];
                    long left = f.size(); // a file that grows while sent is cut at the length announced
                    for (int n; left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0; left -= n) {
                        out.write(buf, 0, n);
                    }
                }
            }
        }
    }

    private static void headers(HttpExchange ex, String type) {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        ex.getResponseHeaders().set("Content-Security-Policy", Csp.POLICY);
        ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        headers(ex, type);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
