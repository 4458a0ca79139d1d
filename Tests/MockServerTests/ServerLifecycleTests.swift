import Foundation
import Testing

@testable import MockServer

@Suite("Starting and stopping")
struct ServerLifecycleTests {
    @Test func startReturnsAListeningLoopbackServerOnAnOSChosenPort() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        #expect(server.port > 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        let status = try await withClient(of: server) { client in try await client.get("/posts").status }
        #expect(status == .ok)
        await server.stop()
    }

    @Test func stopReturnsWhileAClientStillHoldsAKeepAliveConnection() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        let client = try await MockClient(port: server.port)
        #expect(try await client.get("/feed").status == .ok)
        await server.stop()
        await client.shutdown()
    }

    @Test func startFailsWhenThePortIsTaken() async throws {
        let server = try await RunningMockServer.start(MockServerConfiguration())
        await #expect(throws: (any Error).self) {
            let second = try await RunningMockServer.start(MockServerConfiguration(port: server.port))
            await second.stop()
        }
        await server.stop()
    }

    // MARK: The executable

    /// `fresh-mock` beside the test bundle: the test target depends on it, so the build makes it.
    static func executable() throws -> URL {
        let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fresh-mock")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "fresh-mock is not built beside the tests (\(url.path))")
        return url
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func executablePrintsTheBaseURLFirstAndExitsCleanlyOnSignal(signal: Int32) async throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["--port", "0", "--posts", "5"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let firstLine = Self.readLine(from: output.fileHandleForReading)
        #expect(firstLine.hasPrefix("http://127.0.0.1:"))
        let port = try #require(Int(firstLine.split(separator: ":").last ?? ""))
        let status = try await withClient(port: port) { client in try await client.get("/posts").status }
        #expect(status == .ok)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// Reads up to the first newline (blocking until the process writes it).
    private static func readLine(from handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while let chunk = try? handle.read(upToCount: 1), let byte = chunk.first, byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
