import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import MockServer

@Suite("Request log")
struct AccessLogTests {
    /// Collects the lines a server logs.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var destination: AccessLogDestination { .lines { line in self.lines.withLock { $0.append(line) } } }
    }

    @Test func aLineHasTimeMethodTargetStatusBytesConditionDurationAndFault() {
        let entry = AccessLogEntry(
            time: Date(timeIntervalSince1970: 784_111_777.123), method: "GET", target: "/posts?limit=2", status: 304,
            bodyBytes: 0, condition: ConditionalOutcome(header: .ifNoneMatch, result: .matched),
            duration: .microseconds(410), fault: nil)
        #expect(entry.line == "1994-11-06T08:49:37.123Z GET /posts?limit=2 304 0 If-None-Match:matched 0.41ms")
        var faulted = entry
        faulted.condition = nil
        faulted.fault = "latency 30ms, status 503"
        faulted.target = "/a b\u{1B}\"é"
        #expect(faulted.line.hasSuffix(#" GET /a%20b%1B%22%C3%A9 304 0 - 0.41ms fault="latency 30ms, status 503""#))
    }

    @Test func everyRequestIsOneLineInOrderWithTheValidatorThatDecided() async throws {
        let lines = Lines()
        let configuration = MockServerConfiguration(faults: [FaultRule(route: "/feed", failure: .status)], accessLog: lines.destination)
        let server = try await RunningMockServer.start(configuration)
        try await withClient(of: server) { client in
            let page = try await client.get("/posts?limit=2")
            _ = try await client.get("/posts?limit=2", headers: [.ifNoneMatch: try #require(page.headers[.eTag])])
            _ = try await client.get("/posts?limit=2", headers: [.ifNoneMatch: "\"old\""])
            _ = try await client.send(.patch, "/posts/1", json: #"{"title":"t"}"#, headers: [.ifMatch: "\"old\""])
            let post = try await client.get("/posts/1")
            _ = try await client.send(.patch, "/posts/1", json: #"{"title":"t"}"#, headers: [.ifMatch: try #require(post.headers[.eTag])])
            _ = try await client.get("/feed")
        }
        await server.stop()
        let fields = lines.all.map { $0.split(separator: " ").map(String.init) }
        #expect(fields.map { $0[1] + " " + $0[2] + " " + $0[3] + " " + $0[5] } == [
            "GET /posts?limit=2 200 -", "GET /posts?limit=2 304 If-None-Match:matched", "GET /posts?limit=2 200 If-None-Match:unmatched",
            "PATCH /posts/1 412 If-Match:unmatched", "GET /posts/1 200 -", "PATCH /posts/1 200 If-Match:matched", "GET /feed 503 -",
        ])
        #expect(fields.allSatisfy { $0[0].hasSuffix("Z") && $0[6].hasSuffix("ms") && Int($0[4]) != nil })
        #expect(fields[1][4] == "0" && Int(fields[0][4]) ?? 0 > 100)
        #expect(lines.all.last?.hasSuffix(#"fault="status 503""#) == true)
    }
}

extension AccessLogDestination {
    var isOff: Bool {
        if case .off = self { return true }
        return false
    }
}
