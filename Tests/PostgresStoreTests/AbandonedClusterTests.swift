import Foundation
import StoreTestSupport
import Testing

/// A test process that crashes leaves its PostgreSQL cluster running; the next test process
/// stops it and removes its directory, and touches nothing else. (Only directories here: a test
/// that started a second cluster in this process and swept it made InterruptionTests lose its
/// SIGTERM in 3 of 8 runs, 0 of 6 without it; the sweep of a real server was checked by hand.)
@Suite("Throw-away PostgreSQL clusters: the abandoned are swept")
struct AbandonedClusterTests {
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
