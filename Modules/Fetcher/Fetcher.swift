import Foundation
import Synchronization

/// The offline-first Fetcher: show what is stored at once, refresh from the remote side in the
/// background (single-flight: calls made while a refresh runs join it), and keep showing what is
/// stored (with the error) when that fails. It knows nothing about HTTP or SQLite; it takes:
/// - `readLocal`, which reads what is stored now;
/// - `refreshRemote`, which fetches from the origin and writes the result to local storage;
/// - `classify`, which turns a refresh error into a ``FetchFailure``.
public final class Fetcher<Value: Sendable>: Sendable {
    public typealias ReadLocal = @Sendable () async throws -> Value
    public typealias RefreshRemote = @Sendable () async throws -> Void
    public typealias Classify = @Sendable (any Error) -> FetchFailure

    private struct Shared {
        var state: FetchState<Value>
        var observers: [Int: AsyncStream<FetchState<Value>>.Continuation] = [:]
        var nextObserver = 0
        var inFlight: Task<Void, Never>?
    }

    private let readLocal: ReadLocal
    private let refreshRemote: RefreshRemote
    private let classify: Classify
    private let shared = Mutex(Shared(state: FetchState(value: nil, status: .idle)))
    private let clock: @Sendable () -> Date

    public init(
        readLocal: @escaping ReadLocal, refreshRemote: @escaping RefreshRemote, classify: @escaping Classify,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.readLocal = readLocal
        self.refreshRemote = refreshRemote
        self.classify = classify
        self.clock = clock
    }

    /// The state now.
    public var state: FetchState<Value> { shared.withLock { $0.state } }

    /// Every state from now on, starting with the current one, until the consumer stops iterating.
    public func states() -> AsyncStream<FetchState<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(of: FetchState<Value>.self, bufferingPolicy: .bufferingNewest(16))
        let id = shared.withLock { shared in
            let id = shared.nextObserver
            shared.nextObserver += 1
            shared.observers[id] = continuation
            continuation.yield(shared.state)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.shared.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Reads the stored value and publishes it, without touching the remote side.
    public func loadLocal() async {
        do {
            let value = try await readLocal()
            update { $0.value = value }
        } catch {
            update { $0.status = .failed(self.classify(error)) }
        }
    }

    /// Publishes the stored value with `.loading`, refreshes from the remote side, then
    /// publishes the stored value again with `.refreshed` or `.failed`. Returns when done.
    public func refresh() async { await startRefresh().value }

    /// Starts a refresh in the background, or joins the one running; returns its task at once.
    @discardableResult
    public func startRefresh() -> Task<Void, Never> {
        shared.withLock { shared in
            if let running = shared.inFlight { return running }
            let task = Task { await self.runRefresh() }
            shared.inFlight = task
            return task
        }
    }

    private func runRefresh() async {
        update { $0.status = .loading }
        if let stored = try? await readLocal() { update { $0.value = stored } }
        var failure: FetchFailure?
        do { try await refreshRemote() } catch { failure = classify(error) }
        let value = try? await readLocal()
        let finished = clock()
        // Done and published in one step: whoever sees the final state and asks again starts a
        // new refresh rather than joining this finished one.
        update(finishing: true) { state in
            if let value { state.value = value }
            state.status = failure.map(FetchState<Value>.Status.failed) ?? .refreshed(finished)
        }
    }

    private func update(finishing: Bool = false, _ change: (inout FetchState<Value>) -> Void) {
        shared.withLock { shared in
            change(&shared.state)
            if finishing { shared.inFlight = nil }
            for observer in shared.observers.values { observer.yield(shared.state) }
        }
    }
}
