import Foundation
import HTTPCache

/// A python `http.server` on a free loopback port that answers each request path (with its
/// query) from a table the test writes, read again on every request: a server whose pages
/// change, fail or disappear between two syncs, the way real APIs do.
final class ScriptedOrigin {
    /// One answer: a status and a JSON body (with an `ETag`, and other `headers`, when given); or, with `raw`, those
    /// bytes and nothing else (a reply that is not HTTP). With `throttled`, the first that many
    /// requests of the path get a 429 with `Retry-After: retryAfter` instead (or the status
    /// `throttledStatus` names, with an empty object). With `laterBodies`, the second request of
    /// the path gets the first of them, the third the second, and so on, the last repeated. With `revalidates`, a request that names the
    /// reply's `etag` in `If-None-Match` gets a 304, with the reply's `headers`.
    struct Reply: Encodable {
        var status = 200
        var body: String
        var etag: String?
        var raw: String?
        var throttled: Int?
        var retryAfter: String?
        var throttledStatus: Int?
        var headers: [String: String]?
        /// The bodies of the path's second request on, the last one repeated: a page that
        /// changes once it has been read, and maybe again.
        var laterBodies: [String]?
        /// Whether a request whose `If-None-Match` names `etag` gets a 304.
        var revalidates: Bool?

        init(status: Int = 200, body: String, etag: String? = nil, headers: [String: String]? = nil) {
            self.status = status
            self.body = body
            self.etag = etag
            self.headers = headers
        }

        init(raw: String) {
            body = ""
            self.raw = raw
        }
    }

    let baseURL: String
    private let peer: PythonPeer
    private let table: String

    private static let script = """
        import http.server, json, os, sys, threading, time
        table = sys.argv[1]
        log, hits, served, lock = [], {}, [None], threading.Lock()
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                if self.path == "/_log":
                    with lock:
                        body = json.dumps(log).encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                with open(table) as f:
                    reply = json.load(f).get(self.path, {"status": 404, "body": "{\\"error\\": \\"not found\\"}"})
                with lock:
                    if served[0] != os.stat(table).st_mtime_ns:
                        served[0] = os.stat(table).st_mtime_ns
                        hits.clear()
                    hits[self.path] = hits.get(self.path, 0) + 1
                    count = hits[self.path]
                    if count <= (reply.get("throttled") or 0):
                        reply = {"status": reply.get("throttledStatus") or 429, "body": "{}", "retryAfter": reply.get("retryAfter")}
                    log.append({"time": time.monotonic(), "path": self.path, "status": reply.get("status", 200)})
                if reply.get("raw") is not None:
                    self.wfile.write(reply["raw"].encode())
                    self.close_connection = True
                    return
                if reply.get("revalidates") and reply.get("etag") and self.headers.get("If-None-Match") == reply["etag"]:
                    self.send_response(304)
                    self.send_header("ETag", reply["etag"])
                    for name, value in (reply.get("headers") or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    return
                later = reply.get("laterBodies") or []
                body = (later[min(count - 2, len(later) - 1)] if later and count > 1 else reply["body"]).encode()
                self.send_response(reply["status"])
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if reply.get("etag"):
                    self.send_header("ETag", reply["etag"])
                if reply.get("retryAfter"):
                    self.send_header("Retry-After", reply["retryAfter"])
                for name, value in (reply.get("headers") or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *arguments):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    init() throws {
        table = NSTemporaryDirectory() + "fresh-scripted-origin-" + UUID().uuidString + ".json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: table))
        peer = try PythonPeer(["-c", Self.script, table])
        guard let port = Int(peer.firstLine) else {
            peer.stop()
            throw URLError(.cannotConnectToHost)
        }
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// One request as the origin received it: when (seconds, by a monotonic clock), which path
    /// and query, and the status it answered.
    struct Received: Decodable {
        var time: Double
        var path: String
        var status: Int
    }

    /// Every request received so far, in order (asked for through `client`, past its cache).
    func received(through client: CachingClient) async throws -> [Received] {
        let log = try await client.send(TransportRequest(method: .get, url: URL(string: baseURL + "/_log")!),
                                        policy: .reloadIgnoringLocalCacheData)
        return try JSONDecoder().decode([Received].self, from: log.body)
    }

    /// Answers every path of `replies` (a path with its query, `/things?page=2`) as given, and
    /// any other with a 404; the `throttled` counts start again.
    func serve(_ replies: [String: Reply]) throws {
        try JSONEncoder().encode(replies).write(to: URL(fileURLWithPath: table), options: .atomic)
    }

    deinit {
        peer.stop()
        try? FileManager.default.removeItem(atPath: table)
    }
}
