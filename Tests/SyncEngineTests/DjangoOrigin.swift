import Foundation

/// The Django REST framework API of Tools/peers/drf_api.py on a free loopback port: pagination
/// written by a web framework, not by this project (`make setup` installs Django and DRF).
final class DjangoOrigin: Sendable {
    let baseURL: String
    private let peer: PythonPeer

    /// - Parameter gzip: Django's GZipMiddleware compresses bodies for clients that ask.
    init(items: Int, throttle: String = "50/s", gzip: Bool = false) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/peers/drf_api.py").path
        let peer = try PythonPeer([script, "--items", String(items), "--throttle", throttle, "--lifetime", "300"] + (gzip ? ["--gzip"] : []))
        let url = peer.firstLine
        guard url.hasPrefix("http://127.0.0.1:") else {
            peer.stop()
            throw URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "drf_api.py did not start (is Django installed? run make setup)"])
        }
        baseURL = url
        self.peer = peer
    }

    deinit {
        peer.stop()
    }
}
