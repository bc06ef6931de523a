package io.lockchaos.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/** Routes the Toxiproxy v2 HTTP API onto a {@link ProxyRegistry}. */
final class ApiHandler implements HttpHandler {
    /** What GET /version answers; toxiproxy-java only trims and returns it. */
    static final String VERSION = "2.12.0-lockchaos-embedded";

    /** A response: JSON, plain text, or nothing (204). */
    private record Response(int status, byte[] body, String contentType) {
        static Response json(int status, JsonNode node) {
            return new Response(status, ApiJson.bytes(node), "application/json");
        }

        static Response noContent() {
            return new Response(204, null, null);
        }
    }

    private final ProxyRegistry registry;

    /** The address the server binds: 127.0.0.1, or 0.0.0.0 inside a container. */
    private final String bind;

    ApiHandler(ProxyRegistry registry) {
        this(registry, HostPort.LOOPBACK);
    }

    ApiHandler(ProxyRegistry registry, String bind) {
        this.bind = bind;
        this.registry = registry;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        Response r;
        try {
            byte[] body = exchange.getRequestBody().readAllBytes();
            r = route(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), body);
        } catch (ApiException e) {
            r = Response.json(e.status(), ApiJson.error(e.status(), e.getMessage()));
        } catch (RuntimeException | Error e) {
            // Always answer: toxiproxy-java sets no read timeout, so an unanswered request hangs its caller forever.
            // The body is built by hand because ApiJson itself may be what failed (a missing Jackson class, say).
            String json = "{\"error\":\"internal error: " + e.getClass().getName() + "\",\"status\":500}";
            r = new Response(500, json.getBytes(StandardCharsets.UTF_8), "application/json");
        }
        try {
            if (r.body() == null) {
                exchange.sendResponseHeaders(r.status(), -1);
            } else {
                exchange.getResponseHeaders().set("Content-Type", r.contentType());
                exchange.sendResponseHeaders(r.status(), r.body().length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(r.body());
                }
            }
        } finally {
            exchange.close();
        }
    }

    private Response route(String method, String path, byte[] body) {
        List<String> p = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toList();
        if (p.equals(List.of("version"))) {
            allow(method, "GET");
            return new Response(200, VERSION.getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8");
        }
        if (p.equals(List.of("reset"))) {
            allow(method, "POST");
            registry.reset();
            return Response.noContent();
        }
        if (p.isEmpty() || !p.get(0).equals("proxies") || p.size() > 4 || p.size() >= 3 && !p.get(2).equals("toxics")) {
            throw ApiException.notFound("not found: " + path);
        }
        return switch (p.size()) {
            case 1 -> proxies(method, body);
            case 2 -> proxy(method, registry.get(p.get(1)), body);
            case 3 -> toxics(method, registry.get(p.get(1)), body);
            default -> toxic(method, registry.get(p.get(1)), p.get(3), body);
        };
    }

    private Response proxies(String method, byte[] body) {
        if (method.equals("GET")) {
            return Response.json(200, ApiJson.proxies(registry.all().stream().map(TcpProxy::snapshot).toList()));
        }
        allow(method, "POST");
        JsonNode req = ApiJson.parse(body);
        String name = ApiJson.text(req, "name");
        if (name == null || name.isEmpty()) {
            throw ApiException.badRequest("missing required field: name");
        }
        String listen = ApiJson.text(req, "listen");
        HostPort listenAt = HostPort.parseListen(listen == null ? bind + ":0" : listen, bind);
        HostPort upstream = HostPort.parse("upstream", ApiJson.text(req, "upstream"), false);
        TcpProxy created = registry.create(name, listenAt, upstream, ApiJson.bool(req, "enabled", true));
        return Response.json(201, ApiJson.proxy(created.snapshot()));
    }

    private Response proxy(String method, TcpProxy proxy, byte[] body) {
        switch (method) {
            case "GET":
                return Response.json(200, ApiJson.proxy(proxy.snapshot()));
            case "DELETE":
                registry.delete(proxy.name());
                return Response.noContent();
            default:
                allow(method, "POST");
                JsonNode req = ApiJson.parse(body);
                ProxySnapshot now = proxy.snapshot();
                String listen = ApiJson.text(req, "listen");
                String upstream = ApiJson.text(req, "upstream");
                proxy.update(listen == null ? now.listen() : HostPort.parseListen(listen, bind),
                        upstream == null ? now.upstream() : HostPort.parse("upstream", upstream, false),
                        ApiJson.bool(req, "enabled", now.enabled()));
                return Response.json(200, ApiJson.proxy(proxy.snapshot()));
        }
    }

    private Response toxics(String method, TcpProxy proxy, byte[] body) {
        if (method.equals("GET")) {
            return Response.json(200, ApiJson.toxics(proxy.toxics()));
        }
        allow(method, "POST");
        return Response.json(200, ApiJson.toxic(proxy.addToxic(ApiJson.newToxic(ApiJson.parse(body)))));
    }

    private Response toxic(String method, TcpProxy proxy, String name, byte[] body) {
        switch (method) {
            case "GET":
                return Response.json(200, ApiJson.toxic(proxy.toxic(name)));
            case "DELETE":
                proxy.removeToxic(name);
                return Response.noContent();
            default:
                allow(method, "POST");
                JsonNode req = ApiJson.parse(body);
                return Response.json(200, ApiJson.toxic(proxy.updateToxic(name, t -> ApiJson.updatedToxic(t, req))));
        }
    }

    private static void allow(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new ApiException(405, "method not allowed: " + method);
        }
    }
}
