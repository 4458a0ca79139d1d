import Synchronization

/// The statistics and the bounded journal of answered requests, shared by all connections.
final class RequestLog: Sendable {
    private struct State {
        var statistics = MockServerStatistics()
        /// The last `capacity` entries; once full, a ring whose oldest entry is at `oldest`, so
        /// recording costs the same however long the journal (no shifting of the array).
        var journal: [JournalEntry] = []
        var oldest = 0
        var sequence = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Counts a request and appends it to the journal (overwriting the oldest beyond capacity).
    func record(_ entry: JournalEntry, route: String, isConditional: Bool, bytesSaved: Int) {
        state.withLock { state in
            state.statistics.record(route: route, status: entry.status, isConditional: isConditional,
                                    bodyBytes: entry.bodyBytes, bytesSaved: bytesSaved)
            state.sequence += 1
            var entry = entry
            entry.sequence = state.sequence
            if state.journal.count < capacity {
                state.journal.append(entry)
            } else {
                state.journal[state.oldest] = entry
                state.oldest = (state.oldest + 1) % capacity
            }
        }
    }

    /// An API request has arrived: it counts as in flight until ``ended()``.
    func began() {
        state.withLock { state in
            state.statistics.inFlight += 1
            state.statistics.maxInFlight = max(state.statistics.maxInFlight, state.statistics.inFlight)
        }
    }

    /// An API request has been answered.
    func ended() {
        state.withLock { $0.statistics.inFlight -= 1 }
    }

    var statistics: MockServerStatistics {
        state.withLock { $0.statistics }
    }

    /// The last `limit` journal entries, oldest first.
    func journal(last limit: Int) -> [JournalEntry] {
        state.withLock { state in
            let inOrder = state.journal[state.oldest...] + state.journal[..<state.oldest]
            return Array(inOrder.suffix(limit))
        }
    }

    /// Forgets everything (part of `/_admin/reset`).
    func clear() {
        state.withLock { state in
            let inFlight = state.statistics.inFlight
            state = State()
            state.statistics.inFlight = inFlight
        }
    }
}
