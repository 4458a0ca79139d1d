import Synchronization

// MARK: - RequestLog

/// The statistics and the bounded journal of answered requests, shared by all connections.
final class RequestLog: Sendable {
    private struct State {
        var statistics = MockServerStatistics()
        var journal: [JournalEntry] = []
        var sequence = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Counts a request and appends it to the journal (dropping the oldest beyond capacity).
    func record(_ entry: JournalEntry, route: String, isConditional: Bool, bytesSaved: Int) {
        state.withLock { state in
            state.statistics.record(
                route: route, status: entry.status, isConditional: isConditional,
                bodyBytes: entry.bodyBytes, bytesSaved: bytesSaved
            )
            state.sequence += 1
            var entry = entry
            entry.sequence = state.sequence
            state.journal.append(entry)
            if state.journal.count > capacity {
                state.journal.removeFirst(state.journal.count - capacity)
            }
        }
    }

    /// The counts so far.
    var statistics: MockServerStatistics {
        state.withLock { $0.statistics }
    }

    /// The last `limit` journal entries, oldest first.
    func journal(last limit: Int) -> [JournalEntry] {
        state.withLock { Array($0.journal.suffix(limit)) }
    }

    /// Forgets everything (part of `/_admin/reset`).
    func clear() {
        state.withLock { $0 = State() }
    }
}
