import HTTPCache
import Synchronization

/// A page whose reading overlaps the request for the next page.
///
/// A sync that knows the next page's URL before reading a page (a cursor, a next URL or a
/// `Link` field, found by a quick pass over the body) sends that request at once; the page is
/// read on the same thread while the server prepares the answer (``WhileWaiting``), or when
/// ``result()`` asks, whichever comes first. The reading is delivered (queued for the writer)
/// once. A wait to retry the next request delivers it first, so a page is never held back by
/// the one after it.
final class PendingRead<Reading: Sendable>: Sendable {
    let whileWaiting: WhileWaiting
    private let reading = Slot<Reading>()
    private let deliver: @Sendable (Reading) async throws -> Void
    private let delivered = Mutex<Result<Reading, any Error>?>(nil)

    /// - Parameters:
    ///   - read: reads the page (synchronous: it may run inside the transport's wait).
    ///   - deliver: what becomes of the reading, once (for example: checked, then queued).
    init(read: @escaping @Sendable () throws -> Reading, deliver: @escaping @Sendable (Reading) async throws -> Void) {
        let reading = reading
        whileWaiting = WhileWaiting { reading.value.withLock { $0 = Result { try read() } } }
        self.deliver = deliver
    }

    /// The reading, delivered (read now if it was not yet); the same result every time.
    func result() async throws -> Reading {
        if let done = delivered.withLock({ $0 }) { return try done.get() }
        whileWaiting.run()
        let outcome: Result<Reading, any Error>
        do {
            let value = try reading.value.withLock { $0! }.get()
            try await deliver(value)
            outcome = .success(value)
        } catch {
            outcome = .failure(error)
        }
        delivered.withLock { $0 = outcome }
        return try outcome.get()
    }
}

extension PendingRead: WorkWhileWaiting {
    func finish() async throws {
        _ = try await result()
    }
}

/// What ``PageFetcher`` needs of a page read while the next request waits.
protocol WorkWhileWaiting: Sendable {
    /// The work, for the request.
    var whileWaiting: WhileWaiting { get }
    /// Completes it (before a wait to retry the request).
    func finish() async throws
}

/// Where the reading lands, from whichever thread ran it.
private final class Slot<Reading: Sendable>: Sendable {
    let value = Mutex<Result<Reading, any Error>?>(nil)
}
