import Foundation
import Testing

@testable import MockServer

/// `fresh-mock` as a user runs it: one line on stderr and a documented exit status for every
/// failure, the request log on stderr, the base URL first on stdout.
@Suite("fresh-mock executable")
struct CommandLineTests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `fresh-mock arguments` to its exit (killed after 30 s).
    static func run(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = try ServerLifecycleTests.executable()
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            stderr: String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    @Test func versionPrintsTheVersion() throws {
        let outcome = try Self.run(["--version"])
        #expect(outcome.status == 0 && outcome.stdout == "fresh-mock \(FreshMockCommand.version)\n")
    }

    @Test func helpDocumentsEveryStyleAndTheExitStatuses() throws {
        let help = try Self.run(["--help"]).stdout
        for style in MockPaginationStyle.allCases { #expect(help.contains(style.rawValue)) }
        for code in ["64", "65", "66", "68", "69"] { #expect(help.contains("  \(code)  ")) }
    }

    @Test(arguments: [
        (["--port", "abc"], "fresh-mock: "), (["--rate-limit", "10/fortnight"], "fresh-mock: The value '10/fortnight' is invalid for '--rate-limit <N/window>': 'fortnight' is not a window"),
        (["--style", "pages"], "fresh-mock: "), (["--fault", "route=/nope"], "fresh-mock: --fault: '/nope' is not an API route"),
    ])
    func badArgumentsAreOneLineAndExit64(arguments: [String], prefix: String) throws {
        let outcome = try Self.run(arguments + ["--port", "0"].filter { _ in !arguments.contains("--port") })
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix(prefix), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1 && !outcome.stderr.contains("Usage"))
    }

    @Test func aBusyPortIsOneLineAndExit69() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        let outcome = try Self.run(["--port", String(server.port)])
        await server.stop()
        #expect(outcome.status == 69)
        #expect(outcome.stderr == "fresh-mock: port \(server.port) on 127.0.0.1 is already in use (pick another with --port, or --port 0)\n")
        #expect(outcome.stdout.isEmpty)
    }

    @Test(arguments: ["no-such-host.invalid", "192.0.2.1"])
    func aHostThatIsNotThisMachineIsOneLineAndExit68(host: String) throws {
        let outcome = try Self.run(["--host", host, "--port", "0"])
        #expect(outcome.status == 68)
        #expect(outcome.stderr.hasPrefix("fresh-mock: --host \(host)") && outcome.stderr.split(separator: "\n").count == 1,
                "\(outcome.stderr)")
    }

    @Test func anUnreadableDataFileIsExit66AndAnInvalidOneExit65() throws {
        let missing = try Self.run(["--data", "/nonexistent/db.json", "--port", "0"])
        #expect(missing.status == 66 && missing.stderr == "fresh-mock: cannot read /nonexistent/db.json: no such file\n")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-mock-\(UUID().uuidString).json")
        try Data(#"{"posts": [{"id": 1}, {"id": 1}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let invalid = try Self.run(["--data", file.path, "--port", "0"])
        #expect(invalid.status == 65)
        #expect(invalid.stderr == "fresh-mock: \(file.path): posts[1] has the same \"id\" as posts[0]: 1\n")
    }

    @Test(arguments: [false, true])
    func requestsAreLoggedOnStandardErrorUnlessQuiet(quiet: Bool) async throws {
        let process = Process()
        process.executableURL = try ServerLifecycleTests.executable()
        process.arguments = ["--port", "0", "--posts", "5"] + (quiet ? ["--quiet"] : [])
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        var firstLine: [UInt8] = []
        while let byte = try stdout.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            firstLine.append(byte)
        }
        let port = try #require(Int(String(decoding: firstLine, as: UTF8.self).split(separator: ":").last ?? ""))
        let status = try await withClient(port: port) { client in try await client.get("/posts?limit=2").status }
        #expect(status == .ok)
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if quiet {
            #expect(log.isEmpty)
        } else {
            let lines = log.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.contains(" GET /posts?limit=2 200 ") == true, "\(log)")
        }
        #expect(process.terminationStatus == 0)
    }
}
