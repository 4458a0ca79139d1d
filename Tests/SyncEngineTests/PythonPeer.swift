import Foundation

/// A python program serving on loopback for a test: started with `arguments` after `python3`,
/// standard error dropped, and the first line it prints (where it listens) read before the
/// test goes on. Stopped with SIGKILL, not terminate(): a test process may ignore SIGTERM
/// (signal handlers installed by other tests), and an ignored signal stays ignored in the child.
final class PythonPeer: Sendable {
    private let process: Process
    /// The first line the program printed, without its line break.
    let firstLine: String

    init(_ arguments: [String]) throws {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A), let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            line.append(byte)
        }
        self.process = process
        firstLine = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
