/// The pages between the task that fetches and reads them and the loop that writes them: at
/// most ``capacity`` wait (so memory stays flat), and the writer takes all that wait at once, so
/// one transaction writes several pages whenever the writer has fallen behind.
actor PageQueue<Element: Sendable> {
    private let capacity: Int
    private var waiting: [Element] = []
    private var failure: (any Error)?
    private var isClosed = false
    private var taker: CheckedContinuation<Void, Never>?
    private var putters: [CheckedContinuation<Void, Never>] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds a page, waiting while the queue is full; dropped once the writer has closed it.
    func put(_ element: Element) async {
        while waiting.count >= capacity && !isClosed {
            await withCheckedContinuation { putters.append($0) }
        }
        guard !isClosed else { return }
        waiting.append(element)
        wakeTaker()
    }

    /// Ends the queue with the producer's error: the writer gets it after the pages before it.
    func fail(_ error: any Error) {
        failure = error
        wakeTaker()
    }

    /// Every page waiting (at least one), or the producer's error once none is left.
    func takeAll() async throws -> [Element] {
        while waiting.isEmpty {
            if let failure { throw failure }
            await withCheckedContinuation { taker = $0 }
        }
        let batch = waiting
        waiting.removeAll(keepingCapacity: true)
        for putter in putters { putter.resume() }
        putters.removeAll()
        return batch
    }

    /// The writer is gone: nothing more is accepted, and a producer waiting for room goes on.
    func close() {
        isClosed = true
        for putter in putters { putter.resume() }
        putters.removeAll()
    }

    private func wakeTaker() {
        taker?.resume()
        taker = nil
    }
}
