/// A speed-up, skippable on a first reading (``SpeedUps/writeBehind``): the pages a pass has
/// read are written by a task of their own (``writeAll()``), so the walk goes on instead of
/// waiting for the disk; pages that come faster than they are written share a transaction (a
/// commit costs about as much as writing a page of a hundred items).
///
/// Pages are counted by their weight: a page of items weighs 1; one whose write is only a record
/// (a 304's pass) weighs less, so that more of them share a statement. At most ``capacity`` pages'
/// weight waits, so memory stays flat. A batch is ``batchSize`` pages' weight, or less once the
/// oldest has waited ``maximumDelay`` (a slow server's pages still go as they come) or the walk is done.
actor WriteBehind<Page: Sendable> {
    let capacity: Int
    let batchSize: Int
    let maximumDelay: Duration
    private let weight: @Sendable (Page) -> Double
    private let write: @Sendable ([Page]) async throws -> Void
    private var waiting: [Page] = []
    /// The weight of the pages in ``waiting``.
    private var waitingWeight = 0.0
    /// Why the writing stopped, when it failed: every later call throws it.
    private var failure: (any Error)?
    /// The walk has put its last page.
    private var isFinished = false
    /// The writing task has written everything, or failed.
    private var isDone = false
    /// The oldest waiting page has waited ``maximumDelay``.
    private var isDue = false
    /// Tells the timer of an earlier batch from the current one's.
    private var batchNumber = 0
    private var writer: CheckedContinuation<Void, Never>?
    private var putters: [CheckedContinuation<Void, Never>] = []
    private var finishers: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - weight: how much of a batch a page fills (at most 1; every page weighs 1 without it).
    ///   - write: writes a batch of pages (in one transaction).
    init(capacity: Int, batchSize: Int, maximumDelay: Duration, weight: @escaping @Sendable (Page) -> Double = { _ in 1 },
         write: @escaping @Sendable ([Page]) async throws -> Void) {
        self.capacity = max(1, capacity)
        self.batchSize = min(max(1, batchSize), self.capacity)
        self.maximumDelay = maximumDelay
        self.weight = weight
        self.write = write
    }

    /// Hands a page over to be written (in order), waiting while ``capacity`` pages' weight waits; throws a failed batch's error.
    func put(_ page: Page) async throws {
        while waitingWeight >= Double(capacity) && failure == nil {
            await withCheckedContinuation { putters.append($0) }
        }
        if let failure { throw failure }
        waiting.append(page)
        waitingWeight += weight(page)
        if waiting.count == 1, !isReady { startTimer() }
        wakeWriter()
    }

    /// Returns once every page put has been written (no more may be put); throws a failed batch's error.
    func finish() async throws {
        isFinished = true
        wakeWriter()
        if !isDone { await withCheckedContinuation { finishers.append($0) } }
        if let failure { throw failure }
    }

    /// The writing task's work: batch after batch until ``finish()``, or a failure.
    func writeAll() async {
        while let batch = await nextBatch() {
            do {
                try await write(batch)
            } catch {
                failure = error
                break
            }
        }
        isDone = true
        for waiter in putters + finishers { waiter.resume() }
        putters.removeAll()
        finishers.removeAll()
    }

    private func nextBatch() async -> [Page]? {
        while !isReady {
            if isFinished && waiting.isEmpty { return nil }
            await withCheckedContinuation { writer = $0 }
        }
        let batch = waiting
        waiting.removeAll(keepingCapacity: true)
        waitingWeight = 0
        isDue = false
        batchNumber += 1
        for putter in putters { putter.resume() }
        putters.removeAll()
        return batch
    }

    private var isReady: Bool { !waiting.isEmpty && (waitingWeight >= Double(batchSize) || isFinished || isDue) }

    private func startTimer() {
        guard !isFinished else { return }
        let number = batchNumber
        Task { [maximumDelay] in
            try? await Task.sleep(for: maximumDelay)
            self.timerFired(for: number)
        }
    }

    private func timerFired(for number: Int) {
        guard number == batchNumber else { return }
        isDue = true
        wakeWriter()
    }

    private func wakeWriter() {
        guard let writer, isReady || isFinished else { return }
        self.writer = nil
        writer.resume()
    }
}
