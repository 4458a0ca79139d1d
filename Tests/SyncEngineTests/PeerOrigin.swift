import Foundation

/// An API of Tools/peers on a free loopback port, written with a web framework or a library,
/// not by this project (`make setup` installs what they need).
final class PeerOrigin: Sendable {
    let baseURL: String
    private let peer: PythonPeer

    init(_ script: String, _ arguments: [String]) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/peers/\(script)").path
        let peer = try PythonPeer([path, "--lifetime", "300"] + arguments)
        let url = peer.firstLine
        guard url.hasPrefix("http://127.0.0.1:") else {
            peer.stop()
            throw URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "\(script) did not start (run make setup)"])
        }
        baseURL = url
        self.peer = peer
    }

    /// Django REST framework's paginators (drf_api.py).
    /// - Parameter gzip: Django's GZipMiddleware compresses bodies for clients that ask.
    static func django(items: Int, throttle: String = "50/s", gzip: Bool = false) throws -> PeerOrigin {
        try PeerOrigin("drf_api.py", ["--items", String(items), "--throttle", throttle] + (gzip ? ["--gzip"] : []))
    }

    /// An Elasticsearch-shaped search (`search_after`), keyset paging, NDJSON, scalars, one object (search_api.py).
    static func search(items: Int) throws -> PeerOrigin {
        try PeerOrigin("search_api.py", ["--items", String(items), "--quiet"])
    }

    /// A JSON:API server: djangorestframework-jsonapi (jsonapi_api.py), which answers 406 to an
    /// `Accept` without its own media type.
    static func jsonAPI(items: Int) throws -> PeerOrigin {
        try PeerOrigin("jsonapi_api.py", ["--items", String(items)])
    }

    deinit {
        peer.stop()
    }
}
