import Foundation

/// The Django REST framework API of Tools/peers/drf_api.py on a free loopback port: pagination
/// written by a web framework, not by this project (`make setup` installs Django and DRF).
final class DjangoOrigin: Sendable {
    let baseURL: String
    private let process: Process

    /// - Parameter gzip: Django's GZipMiddleware compresses bodies for clients that ask.
    init(items: Int, throttle: String = "50/s", gzip: Bool = false) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/peers/drf_api.py").path
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--items", String(items), "--throttle", throttle, "--lifetime", "300"] + (gzip ? ["--gzip"] : [])
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            line.append(byte)
        }
        let url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard url.hasPrefix("http://127.0.0.1:") else {
            kill(process.processIdentifier, SIGKILL)
            throw URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "drf_api.py did not start (is Django installed? run make setup)"])
        }
        baseURL = url
        self.process = process
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
