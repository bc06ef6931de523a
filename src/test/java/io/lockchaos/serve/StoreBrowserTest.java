package io.lockchaos.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store browser in headless Chromium, driven through the DevTools protocol (a WebSocket, from the JDK): the list
 * renders, a real click on a run's timeline link opens its timeline, and neither page throws a script error. Skipped
 * when /usr/bin/chromium is absent; {@code .ci/run} installs it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@org.junit.jupiter.api.Tag("slow") // starts servers, agents, containers or child processes
class StoreBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void theListRendersAndAClickOpensATimelineWithoutScriptErrors() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "skipped: " + CHROMIUM + " is not installed"
                + " (apt-get install -y chromium; .ci/run installs it)");
        Path store = StoreServerTest.exampleStore(tmp);
        try (StoreServer server = StoreServer.start(store, 0)) {
            Process chrome = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--no-first-run", "--user-data-dir=" + tmp.resolve("profile"), "--remote-debugging-port=0",
                    "--remote-debugging-address=127.0.0.1", "about:blank")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try {
                int port = devToolsPort(chrome);
                try (Page page = Page.open(port)) {
                    page.navigate(server.url());
                    assertEquals("5", page.eval("document.body.getAttribute('data-runs')"), "every run is listed");
                    assertEquals("5 of 5 runs, newest first", page.eval("document.getElementById('count').textContent"));
                    // choosing a verdict submits the filter form by itself (the page's one script)
                    page.evalAndWaitForLoad("var s = document.querySelector('#filters select'); s.value = 'valid';"
                            + " s.dispatchEvent(new Event('change')); 'ok'");
                    assertEquals("1", page.eval("document.body.getAttribute('data-runs')"), "filtered to valid");
                    page.navigate(server.url());
                    String href = page.eval("document.querySelector('a.timeline').getAttribute('href')");
                    page.evalAndWaitForLoad("document.querySelector('a.timeline').click(); 'clicked'");
                    assertEquals(href, page.eval("location.pathname"), "the click opened the timeline");
                    assertEquals("true", page.waitFor("document.body.getAttribute('data-ready')", "true"),
                            "the timeline rendered");
                    assertEquals("null", page.eval("String(document.body.getAttribute('data-errors'))"));
                    assertEquals(List.of(), page.exceptions(), "no script errors on either page");
                }
            } finally {
                chrome.descendants().forEach(ProcessHandle::destroyForcibly);
                chrome.destroyForcibly();
                chrome.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The port Chromium chose, from its "DevTools listening on ws://127.0.0.1:PORT/..." line. */
    private static int devToolsPort(Process chrome) throws Exception {
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(chrome.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                Pattern p = Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:([0-9]+)/");
                for (String line; (line = r.readLine()) != null; ) {
                    Matcher m = p.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (Exception e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new AssertionError("chromium printed no DevTools address"));
        }, "chromium-stderr");
        t.setDaemon(true);
        t.start();
        return port.get(60, TimeUnit.SECONDS);
    }

    /** One page target over the DevTools protocol: calls by id, and the exceptions the page threw. */
    private static final class Page implements AutoCloseable, WebSocket.Listener {
        private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();
        private final List<String> exceptions = new CopyOnWriteArrayList<>();
        private final List<CompletableFuture<Void>> loads = new CopyOnWriteArrayList<>();
        private final AtomicInteger ids = new AtomicInteger();
        private final StringBuilder partial = new StringBuilder();
        private WebSocket socket;

        static Page open(int port) throws Exception {
            HttpClient http = HttpClient.newHttpClient();
            JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body());
            String ws = null;
            for (JsonNode t : targets) {
                if (t.path("type").asText().equals("page")) {
                    ws = t.path("webSocketDebuggerUrl").asText();
                }
            }
            assertTrue(ws != null, "no page target: " + targets);
            Page p = new Page();
            p.socket = http.newWebSocketBuilder().buildAsync(URI.create(ws), p).get(30, TimeUnit.SECONDS);
            p.call("Runtime.enable", Map.of());
            p.call("Page.enable", Map.of());
            return p;
        }

        JsonNode call(String method, Map<String, Object> params) throws Exception {
            int id = ids.incrementAndGet();
            CompletableFuture<JsonNode> f = new CompletableFuture<>();
            calls.put(id, f);
            ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
            msg.set("params", JSON.valueToTree(params));
            socket.sendText(JSON.writeValueAsString(msg), true).get(10, TimeUnit.SECONDS);
            JsonNode r = f.get(30, TimeUnit.SECONDS);
            assertTrue(!r.has("error"), method + ": " + r);
            return r.path("result");
        }

        void navigate(String url) throws Exception {
            CompletableFuture<Void> load = new CompletableFuture<>();
            loads.add(load);
            call("Page.navigate", Map.of("url", url));
            load.get(30, TimeUnit.SECONDS);
        }

        /** Evaluates {@code js} and waits for the page load it causes (a form submit, a link click). */
        void evalAndWaitForLoad(String js) throws Exception {
            CompletableFuture<Void> load = new CompletableFuture<>();
            loads.add(load);
            eval(js);
            load.get(30, TimeUnit.SECONDS);
        }

        String eval(String js) throws Exception {
            JsonNode r = call("Runtime.evaluate", Map.of("expression", js, "returnByValue", true));
            assertTrue(!r.has("exceptionDetails"), js + ": " + r);
            return r.path("result").path("value").asText();
        }

        /** Polls {@code js} until it gives {@code want} or 10 s pass; returns its last value. */
        String waitFor(String js, String want) throws Exception {
            String v = eval(js);
            for (long end = System.nanoTime() + Duration.ofSeconds(10).toNanos(); !want.equals(v)
                    && System.nanoTime() < end; v = eval(js)) {
                Thread.sleep(100);
            }
            return v;
        }

        List<String> exceptions() {
            return new ArrayList<>(exceptions);
        }

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    JsonNode m = JSON.readTree(partial.toString());
                    if (m.has("id")) {
                        CompletableFuture<JsonNode> f = calls.remove(m.get("id").asInt());
                        if (f != null) {
                            f.complete(m);
                        }
                    } else if (m.path("method").asText().equals("Runtime.exceptionThrown")) {
                        exceptions.add(m.path("params").path("exceptionDetails").toString());
                    } else if (m.path("method").asText().equals("Page.loadEventFired")) {
                        loads.forEach(l -> l.complete(null));
                        loads.clear();
                    }
                } catch (Exception e) {
                    exceptions.add("unreadable DevTools message: " + e);
                }
                partial.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }
    }
}
