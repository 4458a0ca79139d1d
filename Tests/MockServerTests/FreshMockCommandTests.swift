import Foundation
import Testing

@testable import MockServer

@Suite("fresh-mock command line")
struct FreshMockCommandTests {
    @Test func flagsMapOntoTheConfiguration() throws {
        let command = try FreshMockCommand.parse([
            "--host", "0.0.0.0", "--port", "0", "--seed", "7", "--posts", "12", "--max-age", "0", "--no-cache",
            "--private", "--stale-while-revalidate", "30", "--stale-if-error", "600", "--weak-etags",
            "--unstable-etag", "--ignore-conditionals", "--require-if-match", "--max-body", "2048",
            "--journal-size", "10", "--fault", "route=/posts,status=503,first=2",
        ])
        let configuration = command.configuration
        #expect(configuration.host == "0.0.0.0" && configuration.port == 0 && configuration.seed == 7)
        #expect(configuration.postCount == 12)
        #expect(configuration.cachePolicy.headerValue == "private, no-cache, max-age=0, stale-while-revalidate=30, stale-if-error=600")
        #expect(configuration.weakETags && configuration.unstableETag && configuration.ignoreConditionals)
        #expect(configuration.requireIfMatch && configuration.maxBodyBytes == 2048 && configuration.journalCapacity == 10)
        #expect(configuration.faults == [FaultRule(route: "/posts", failure: .status, status: 503, first: 2)])
    }

    @Test func dataStyleRateLimitAndLogFlagsMapOntoTheConfiguration() throws {
        let configuration = try FreshMockCommand.parse([
            "--users", "7", "--data", "db.json", "--key", "slug", "--style", "has-more", "--rate-limit", "5/2s",
            "--retry-after", "http-date", "--quiet",
        ]).configuration
        #expect(configuration.userCount == 7 && configuration.dataFile == "db.json" && configuration.keyField == "slug")
        #expect(configuration.defaultStyle == .hasMore && configuration.retryAfterFormat == .httpDate)
        #expect(configuration.rateLimit == RateLimit(requests: 5, window: .seconds(2)))
        #expect(configuration.accessLog.isOff)
        #expect(!(try FreshMockCommand.parse([]).configuration.accessLog.isOff))
    }

    @Test func defaultsMatchTheDocumentedOnes() throws {
        let configuration = try FreshMockCommand.parse([]).configuration
        #expect(configuration.host == "127.0.0.1" && configuration.port == 8080 && configuration.seed == 42)
        #expect(configuration.postCount == 100 && configuration.maxAge == 60)
        #expect(configuration.cachePolicy.headerValue == "max-age=60")
        #expect(configuration.defaultStyle == .link && configuration.rateLimit == nil && configuration.retryAfterFormat == .seconds)
        #expect(MockServerConfiguration().accessLog.isOff)  // in-process servers log nothing unless asked
    }

    @Test(arguments: [
        ["--port", "70000"], ["--posts", "-1"], ["--fault", "status=99"], ["--max-age", "-5"], ["--key", ""],
        ["--rate-limit", "0/s"], ["--style", "pages"], ["--retry-after", "never"],
    ])
    func invalidFlagsFailBeforeStarting(arguments: [String]) {
        #expect(throws: (any Error).self) { try FreshMockCommand.parse(arguments) }
    }

    /// The line says what is wrong with the value: a negative number is one (not a missing
    /// value), and the styles a mistyped one could be are listed.
    @Test(arguments: [
        (["--posts", "-1"], "collection sizes must not be negative"),
        (["--max-age", "-5"], "--max-age must not be negative"),
        (["--stale-if-error", "-1"], "--stale-while-revalidate and --stale-if-error must not be negative"),
        (["--style", "pages"], "The value 'pages' is invalid for '--style <style>'. Please provide one of the following: "
            + MockPaginationStyle.allCases.map(\.rawValue).joined(separator: ", ")),
    ])
    func aRefusedFlagSaysWhy(arguments: [String], line: String) {
        do {
            _ = try FreshMockCommand.parse(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(FreshMockCommand.argumentMessage(for: error) == line)
        }
    }
}
