import Foundation
import HTTPCache
import MirrorStore
import Pagination
import Synchronization

/// A speed-up for re-syncs, skippable on a first reading (``SpeedUps/chainLookahead``): when the
/// last pass says where the next pages are (an unchanged collection keeps its chain of next-page
/// URLs), up to ``depth`` conditional requests for them are in flight, not one round trip at a
/// time. A page that turns out to point elsewhere discards what was guessed after it; a guess
/// that failed is asked again, with its retries, when its page is taken.
final class ChainLookahead: PageSource {
    private struct Guess {
        var url: URL
        /// The stored next-page URL it was made from.
        var text: String
        var policy: CachePolicy?
        var task: Task<FetchedPage, any Error>
    }

    private let fetcher: PageFetcher
    private let chain: StoredChain
    /// The pages whose records may be followed: below this index (all when `nil`).
    private let below: Int?
    private let depth: Int
    /// Where guesses run (they are not the pass's children): the pass's transfer loop, when it has one.
    private let executor: (any TaskExecutor)?
    /// Pages revalidated before the walk, never requested again.
    private let skipped: Set<Int>
    private let guesses = Mutex<[Int: Guess]>([:])
    /// Dropped guesses not yet counted, each with the task that counts it when it ends and then
    /// leaves this table (so the table holds what is in flight, not every guess of a long walk).
    private let dropped = Mutex<(nextID: Int, tasks: [Int: (guess: Task<FetchedPage, any Error>, counting: Task<Void, Never>)])>((0, [:]))

    /// - Parameter depth: how many pages may be in flight at once (1: no guessing).
    init(fetcher: PageFetcher, chain: StoredChain, below: Int? = nil, depth: Int, executor: (any TaskExecutor)?, skipping skipped: Set<Int>) {
        self.fetcher = fetcher
        self.chain = chain
        self.below = below
        self.depth = max(1, depth)
        self.executor = executor
        self.skipped = skipped
    }

    /// Page `index` at `url`: the guess in flight for it when right (and successful), else a fetch now;
    /// with `guessing`, the pages the stored chain says follow it are requested first, under the same `policy`.
    func take(_ index: Int, url: URL, plan: PaginationPlan?, policy: CachePolicy?, guessing: Bool) async throws -> FetchedPage {
        let guess = guesses.withLock { $0.removeValue(forKey: index) }
        if let guess, guess.url != url || guess.policy != policy { discard([guess]) }
        if guessing { guessAhead(after: index, url: url, plan: plan, policy: policy) }
        if let guess, guess.url == url, guess.policy == policy, let page = try? await guess.task.value { return page }
        return try await fetcher.fetch(url, index: index, plan: plan, policy: policy)
    }

    func dropGuesses() {
        discard(guesses.withLock { all in defer { all = [:] }; return Array(all.values) })
    }

    func cancelAll() {
        dropGuesses()
        dropped.withLock { $0.tasks.values.forEach { $0.guess.cancel() } }
    }

    func settle() async {
        dropGuesses()
        await withTaskCancellationHandler {
            while let counting = dropped.withLock({ $0.tasks.values.first?.counting }) { await counting.value }
        } onCancel: {
            cancelAll()
        }
    }

    private func guessAhead(after index: Int, url: URL, plan: PaginationPlan?, policy: CachePolicy?) {
        let record = { (index: Int) in index < (self.below ?? .max) ? self.chain[index] : nil }
        var previous = record(index)
        var expected = url.absoluteString
        for candidate in (index + 1)..<(index + depth) {
            guard let stored = previous, stored.url == expected, let next = stored.nextURL else { return }
            // A page revalidated before the walk is not asked again, but the chain goes on past it.
            let requested = skipped.contains(candidate) ? URL(string: next) : guess(candidate, at: next, plan: plan, policy: policy)
            guard let nextURL = requested else { return }
            previous = record(candidate)
            expected = nextURL.absoluteString
        }
    }

    /// Requests page `candidate` at `next` unless that request is in flight already, and returns
    /// its URL; `nil` when `next` is no URL. Each page's take passes over the `depth - 1` guesses
    /// after it: a guess is known by the text it was made from, which is parsed only when new.
    private func guess(_ candidate: Int, at next: String, plan: PaginationPlan?, policy: CachePolicy?) -> URL? {
        guesses.withLock { guesses in
            if let existing = guesses[candidate], existing.text == next, existing.policy == policy { return existing.url }
            guard let url = URL(string: next) else { return nil }
            if let existing = guesses.removeValue(forKey: candidate) { discard([existing]) }
            // A guess tries once: a failure is retried, with its waits said, when the page is taken.
            guesses[candidate] = Guess(url: url, text: next, policy: policy, task: Task(executorPreference: executor) { [fetcher] in
                try await fetcher.fetch(url, index: candidate, plan: plan, policy: policy, retrying: false)
            })
            return url
        }
    }

    /// Drops guesses, left to finish: a request in flight has gone out (cancelling it would only
    /// hide it from the count), and each is counted when it ends (``settle()`` waits for that).
    /// Once the origin states a limit they are cancelled instead: one still waiting for its turn
    /// would spend the budget on an answer nobody reads.
    private func discard(_ discarded: [Guess]) {
        if fetcher.gate.isLimited(fetcher.origin) { discarded.forEach { $0.task.cancel() } }
        for guess in discarded {
            dropped.withLock { state in
                let id = state.nextID
                state.nextID += 1
                // Made under the lock, so its own removal (which takes the lock) comes after its entry.
                let counting = Task { [fetcher] in
                    // The end of the collection (a 404 past the last page) counted its requests as it came.
                    if let page = try? await guess.task.value, !page.endsCollection { fetcher.tally.update { $0.countUnused(page.response) } }
                    _ = self.dropped.withLock { $0.tasks.removeValue(forKey: id) }
                }
                state.tasks[id] = (guess.task, counting)
            }
        }
    }
}
