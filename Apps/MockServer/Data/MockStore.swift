import Foundation
import Synchronization

/// The server's state: the data, and the encoded representations of it.
///
/// Representations are kept by key (route plus canonical query) with the generation of their
/// dataset. A write bumps the generation, so a representation of the changed dataset is built
/// again on its next request, and the kept one (validators, `Last-Modified` and all) stays when
/// the bytes came out the same: every validator changes exactly when its bytes do, and only the
/// pages a write touched are encoded again.
///
/// At most ``byteBudget`` bytes of a dataset's representations are kept, the least recently
/// served going first: a client walking ten million posts would otherwise leave every page in
/// memory, while a walk of a hundred thousand (the benchmarks') is served from memory throughout.
/// A page built again after it went has the same entity tag (it is its bytes' digest); only its
/// `Last-Modified` may move up to the dataset's last write.
final class MockStore: Sendable {
    /// How many bytes of one dataset's representations (bodies in every coding) are kept, unless
    /// the store is told otherwise.
    static let defaultByteBudget = 128 * 1024 * 1024

    private struct Entry {
        var generation: Int
        var representation: Representation
        /// When it was last served, as a count of look-ups.
        var lastServed: Int
    }

    /// What a look-up under the lock found.
    private enum Lookup {
        /// The kept representation, built from the current data.
        case current(Representation)
        /// What building a new one needs: the kept entry, a snapshot, its generation, the last write.
        case stale(Entry?, MockData, Int, Date?)
    }

    private struct State {
        /// What a reset returns to: the data the server started with, or last read (`--watch`).
        var initial: MockData
        var data: MockData
        var generations: [Dataset: Int] = [:]
        /// When each dataset was last written (a reset counts as a write to all of them).
        var lastWrite: [Dataset: Date] = [:]
        var resetAt: Date?
        /// Every representation built, current or not: the previous state of a page is what a
        /// rebuilt one is compared with.
        var entries: [Dataset: [String: Entry]] = [:]
        /// The bytes of each dataset's ``entries``.
        var keptBytes: [Dataset: Int] = [:]
        /// Look-ups so far: the clock of ``Entry/lastServed``.
        var lookups = 0

        /// Keeps `entry` under `key`, then, past `budget` bytes of the dataset, forgets the
        /// least recently served half of the dataset's representations (half at a time, so the
        /// sort is paid once per half).
        mutating func keep(_ entry: Entry, as key: String, of dataset: Dataset, budget: Int) {
            let replaced = entries[dataset, default: [:]].updateValue(entry, forKey: key)
            keptBytes[dataset, default: 0] += entry.representation.byteCount - (replaced?.representation.byteCount ?? 0)
            guard let kept = entries[dataset], keptBytes[dataset, default: 0] > budget else { return }
            let order = kept.sorted { $0.value.lastServed < $1.value.lastServed }
            for (key, forgotten) in order.prefix(kept.count / 2) {
                entries[dataset]?[key] = nil
                keptBytes[dataset, default: 0] -= forgotten.representation.byteCount
            }
        }

        /// The later of the dataset's last write and the last reset, if there was either.
        func lastChange(of dataset: Dataset) -> Date? {
            [lastWrite[dataset], resetAt].compactMap { $0 }.max()
        }
    }

    private let state: Mutex<State>
    /// The bytes of one dataset's representations kept at most.
    let byteBudget: Int

    /// A store that serves `data` and returns to it on ``reset()``.
    init(data: MockData, byteBudget: Int = MockStore.defaultByteBudget) {
        self.state = Mutex(State(initial: data, data: data))
        self.byteBudget = byteBudget
    }

    // MARK: Reading

    /// The current representation for `key`, built again from a snapshot of the data when `dataset`
    /// changed. `build` runs outside the lock; its result is kept only if the dataset did not change meanwhile.
    func representation<Failure: Error>(
        of dataset: Dataset, key: String, build: (MockData) throws(Failure) -> RepresentationContent
    ) throws(Failure) -> Representation {
        // The common case, a kept representation of unchanged data, copies nothing but it.
        let lookup = state.withLock { state -> Lookup in
            state.lookups += 1
            let kept = state.entries[dataset]?[key]
            let generation = state.generations[dataset, default: 0]
            if let kept, kept.generation == generation {
                state.entries[dataset]?[key]?.lastServed = state.lookups
                return .current(kept.representation)
            }
            return .stale(kept, state.data, generation, state.lastChange(of: dataset))
        }
        let (kept, snapshot, generation, lastChange): (Entry?, MockData, Int, Date?)
        switch lookup {
        case .current(let representation): return representation
        case .stale(let entry, let data, let current, let lastWrite): (kept, snapshot, generation, lastChange) = (entry, data, current, lastWrite)
        }
        let content = try build(snapshot)
        let representation: Representation
        if let previous = kept?.representation, previous.entityTag == Representation.entityTag(of: content) {
            representation = previous
        } else {
            representation = Representation(content, lastModified: content.changed.date(lastWrite: lastChange))
        }
        state.withLock { state in
            if state.generations[dataset, default: 0] == generation {
                state.keep(Entry(generation: generation, representation: representation, lastServed: state.lookups),
                           as: key, of: dataset, budget: byteBudget)
            }
        }
        return representation
    }

    /// The data as it is now.
    var snapshot: MockData { state.withLock { $0.data } }

    // MARK: Writing

    /// Runs `change` on the data under the lock, stamped `date`, and marks the representations of
    /// `dataset` for rebuilding; the change is atomic with respect to every other request.
    func write<Result: Sendable>(
        _ dataset: Dataset, at date: Date = Date().inWholeSeconds,
        _ change: (inout MockData, Date) throws(APIError) -> Result
    ) throws(APIError) -> Result {
        try state.withLock { (state: inout State) throws(APIError) -> Result in
            let result = try change(&state.data, date)
            state.generations[dataset, default: 0] += 1
            state.lastWrite[dataset] = max(state.lastWrite[dataset] ?? date, date)
            return result
        }
    }

    /// Serves `data` from now on, and returns to it on a reset (`--watch`, after the file changed).
    func replace(with data: MockData, at date: Date = Date().inWholeSeconds) {
        state.withLock { state in
            state.initial = data
            state.data = data
            for dataset in Set(state.entries.keys).union(state.generations.keys) {
                state.generations[dataset, default: 0] += 1
                state.lastWrite[dataset] = date
            }
        }
    }

    /// Back to the data the server started with.
    func reset(at date: Date = Date().inWholeSeconds) {
        state.withLock { state in
            state.data = state.initial
            for dataset in Set(state.entries.keys).union(state.generations.keys) {
                state.generations[dataset, default: 0] += 1
            }
            state.resetAt = date
        }
    }
}
