import Foundation

/// A python `http.server` on a free loopback port that answers each request path (with its
/// query) from a table the test writes, read again on every request: a server whose pages
/// change, fail or disappear between two syncs, the way real APIs do.
final class ScriptedOrigin {
    /// One answer: a status and a JSON body.
    struct Reply: Encodable {
        var status = 200
        var body: String
    }

    let baseURL: String
    private let peer: PythonPeer
    private let table: String

    private static let script = """
        import http.server, json, sys
        table = sys.argv[1]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                with open(table) as f:
                    reply = json.load(f).get(self.path, {"status": 404, "body": "{\\"error\\": \\"not found\\"}"})
                body = reply["body"].encode()
                self.send_response(reply["status"])
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
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

    /// Answers every path of `replies` (a path with its query, `/things?page=2`) as given, and
    /// any other with a 404.
    func serve(_ replies: [String: Reply]) throws {
        try JSONEncoder().encode(replies).write(to: URL(fileURLWithPath: table), options: .atomic)
    }

    deinit {
        peer.stop()
        try? FileManager.default.removeItem(atPath: table)
    }
}
