import Foundation

/// Runs blocking work (the ncurses loop, which waits for keys) on a thread of its own, so it
/// never holds one of Swift concurrency's few cooperative threads while the Fetcher needs them.
enum UIThread {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Swift.Result { try body() }) }
            thread.name = "fresh-reader UI"
            thread.start()
        }
    }
}
