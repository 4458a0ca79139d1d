/// The pages between the task that fetches and reads them and the loop that writes them: at
/// most ``capacity`` wait (so memory stays flat), and the writer takes them in batches, one
/// transaction each. A batch is ``batchSize`` pages, or fewer when the last page has been put,
/// the producer failed, or the oldest page has waited ``maximumDelay``: a fast server's pages
/// share their commits, a slow server's pages are still written as they come.
actor PageQueue<Element: Sendable> {
    let capacity: Int
    let batchSize: Int
    let maximumDelay: Duration
    private var waiting: [Element] = []
    private var failure: (any Error)?
    private var isClosed = false
    /// The producer put its last element.
    private var isFinished = false
    /// The oldest waiting element has waited ``maximumDelay``.
    private var isDue = false
    /// Tells the timer of an earlier batch from the current one's.
    private var batchNumber = 0
    private var taker: CheckedContinuation<Void, Never>?
    private var putters: [CheckedContinuation<Void, Never>] = []

    init(capacity: Int, batchSize: Int = 1, maximumDelay: Duration = .zero) {
        self.capacity = max(1, capacity)
        self.batchSize = min(max(1, batchSize), self.capacity)
        self.maximumDelay = maximumDelay
    }

    /// Adds an element, waiting while the queue is full; dropped once the writer has closed it.
    /// - Parameter isLast: nothing follows, so what waits is a batch now.
    func put(_ element: Element, isLast: Bool = false) async {
        while waiting.count >= capacity && !isClosed {
            await withCheckedContinuation { putters.append($0) }
        }
        guard !isClosed else { return }
        waiting.append(element)
        isFinished = isFinished || isLast
        if waiting.count == 1 && !isFinished { startTimer() }
        wakeTakerIfReady()
    }

    /// Ends the queue with the producer's error: the writer gets it after the elements before it.
    func fail(_ error: any Error) {
        failure = error
        wakeTakerIfReady()
    }

    /// The next batch (at least one element), or the producer's error once none is left.
    func takeBatch() async throws -> [Element] {
        while !isReady {
            if waiting.isEmpty, let failure { throw failure }
            await withCheckedContinuation { taker = $0 }
        }
        let batch = waiting
        waiting.removeAll(keepingCapacity: true)
        isDue = false
        batchNumber += 1
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

    private var isReady: Bool {
        !waiting.isEmpty && (waiting.count >= batchSize || isFinished || isDue || failure != nil)
    }

    private func startTimer() {
        guard batchSize > 1 else { return }
        let number = batchNumber
        Task { [maximumDelay] in
            try? await Task.sleep(for: maximumDelay)
            self.timerFired(for: number)
        }
    }

    private func timerFired(for number: Int) {
        guard number == batchNumber else { return }
        isDue = true
        wakeTakerIfReady()
    }

    private func wakeTakerIfReady() {
        guard isReady || failure != nil, let taker else { return }
        self.taker = nil
        taker.resume()
    }
}
