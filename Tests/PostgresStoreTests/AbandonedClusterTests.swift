import Foundation
import StoreTestSupport
import Testing

/// A test process that crashes leaves its PostgreSQL cluster running; the next test process
/// stops it and removes its directory, and touches nothing else.
@Suite("Throw-away PostgreSQL clusters: the abandoned are swept")
struct AbandonedClusterTests {
    @Test func aClusterWhoseTestProcessEndedIsStoppedAndRemoved() throws {
        let cluster = try ThrowawayPostgres.ofItsOwn()
        defer { cluster.stop() }
        let ownerFile = cluster.directory + "/" + ThrowawayPostgres.ownerFile
        #expect(try String(contentsOfFile: ownerFile, encoding: .utf8) == "\(getpid())\n")

        ThrowawayPostgres.sweepAbandoned()
        #expect(kill(cluster.pid, 0) == 0, "its owner, this process, still runs")

        try "\(try endedProcess())\n".write(toFile: ownerFile, atomically: false, encoding: .utf8)
        ThrowawayPostgres.sweepAbandoned()
        #expect(kill(cluster.pid, 0) != 0 && errno == ESRCH)
        #expect(!FileManager.default.fileExists(atPath: cluster.directory))
    }

    @Test func directoriesWithoutAnEndedOwnerStay() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-" + UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let owners = ["fresh-pg-live": "\(getpid())", "fresh-pg-ended": "\(try endedProcess())", "fresh-pg-nobody": nil,
                      "fresh-pg-garbled": "not a pid", "other-ended": "\(try endedProcess())"]
        for (name, owner) in owners {
            try FileManager.default.createDirectory(atPath: parent + "/" + name, withIntermediateDirectories: true)
            try owner.map { try "\($0)\n".write(toFile: parent + "/" + name + "/" + ThrowawayPostgres.ownerFile, atomically: false, encoding: .utf8) }
        }

        ThrowawayPostgres.sweepAbandoned(in: parent)
        let left = try FileManager.default.contentsOfDirectory(atPath: parent).sorted()
        #expect(left == ["fresh-pg-garbled", "fresh-pg-live", "fresh-pg-nobody", "other-ended"])
    }

    /// The PID of a process that has ended (and been waited for).
    private func endedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
