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
/// At most ``byteBudget`` bytes of a dataset's whole representations are kept (what each holds in
/// memory, ``Representation/byteCount``), the least recently served
/// going first: a client walking ten million posts would otherwise leave every page in memory,
/// while a walk of a hundred thousand (the benchmarks') is served from memory throughout. A
/// representation whose bodies went keeps its validators (``RepresentationValidators``),
/// so a conditional request that still matches is a 304 without building the page again, as a
/// real server answers from its own ETags; a 200 builds it again. Those go too past
/// ``validatorBudget``. A page built again has the same entity tag (it is its bytes' digest),
/// and keeps its `Last-Modified` while its validators were kept.
final class MockStore: Sendable {
    /// How many bytes of one dataset's whole representations (``Representation/byteCount``) are kept, unless
    /// the store is told otherwise.
    static let defaultByteBudget = 128 * 1024 * 1024
    /// How many bytes of one dataset's representations without their bodies are kept: those of
    /// 100,000 pages of posts (10,000,000 posts in pages of 100) fit.
    static let defaultValidatorBudget = 96 * 1024 * 1024

    private struct Entry {
        var generation: Int
        var kept: Kept
        /// When it was last served, as a count of look-ups.
        var lastServed: Int

        /// A representation whole, or only its validators once its bodies went. Boxed: the store
        /// keeps a hundred thousand entries at ten million posts, and the dictionary's slots
        /// would otherwise each be the size of a whole representation (1.4 KiB an entry, measured).
        indirect enum Kept {
            case whole(Representation)
            case validators(RepresentationValidators)
        }

        var representation: Representation {
            switch kept {
            case .whole(let representation): representation
            case .validators(let validators): Representation(validators: validators)
            }
        }

        var isWhole: Bool {
            if case .whole = kept { true } else { false }
        }

        var byteCount: Int {
            switch kept {
            case .whole(let representation): representation.byteCount
            case .validators(let validators): validators.byteCount
            }
        }
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
        /// The bytes of each dataset's ``entries`` that hold their bodies, and of those that do not
        /// (each entry's ``Entry/byteCount``).
        var keptBytes: [Dataset: Int] = [:]
        var shedBytes: [Dataset: Int] = [:]
        /// Look-ups so far: the clock of ``Entry/lastServed``.
        var lookups = 0

        /// Keeps `entry` under `key`. Past `budget` bytes of the dataset's whole representations, the least
        /// recently served half of the representations holding theirs keep only their
        /// validators; past `validatorBudget` bytes of those, the older half of them goes (half at
        /// a time, so each sort is paid once per half).
        mutating func keep(_ entry: Entry, as key: String, of dataset: Dataset, budget: Int, validatorBudget: Int) {
            if let replaced = entries[dataset, default: [:]].updateValue(entry, forKey: key) { count(replaced, of: dataset, by: -1) }
            count(entry, of: dataset, by: 1)
            if keptBytes[dataset, default: 0] > budget {
                for (key, whole) in leastRecentlyServedHalf(of: dataset, whole: true) {
                    guard case .whole(let representation) = whole.kept else { continue }
                    var shed = whole
                    shed.kept = .validators(representation.validators)
                    count(whole, of: dataset, by: -1)
                    count(shed, of: dataset, by: 1)
                    entries[dataset]?[key] = shed
                }
            }
            if shedBytes[dataset, default: 0] > validatorBudget {
                for (key, shed) in leastRecentlyServedHalf(of: dataset, whole: false) {
                    count(shed, of: dataset, by: -1)
                    entries[dataset]?[key] = nil
                }
            }
        }

        private func leastRecentlyServedHalf(of dataset: Dataset, whole: Bool) -> ArraySlice<(key: String, value: Entry)> {
            let kind = (entries[dataset] ?? [:]).filter { $0.value.isWhole == whole }
            return kind.sorted { $0.value.lastServed < $1.value.lastServed }.prefix(kind.count / 2)
        }

        private mutating func count(_ entry: Entry, of dataset: Dataset, by sign: Int) {
            if entry.isWhole { keptBytes[dataset, default: 0] += sign * entry.byteCount } else { shedBytes[dataset, default: 0] += sign * entry.byteCount }
        }

        /// The later of the dataset's last write and the last reset, if there was either.
        func lastChange(of dataset: Dataset) -> Date? {
            [lastWrite[dataset], resetAt].compactMap { $0 }.max()
        }
    }

    private let state: Mutex<State>
    /// The bytes of one dataset's whole representations kept at most.
    let byteBudget: Int
    /// The bytes of one dataset's representations without bodies kept at most.
    let validatorBudget: Int

    /// A store that serves `data` and returns to it on ``reset()``.
    init(data: MockData, byteBudget: Int = MockStore.defaultByteBudget, validatorBudget: Int = MockStore.defaultValidatorBudget) {
        self.state = Mutex(State(initial: data, data: data))
        self.byteBudget = byteBudget
        self.validatorBudget = validatorBudget
    }

    // MARK: Reading

    /// The current representation for `key`, built again from a snapshot of the data when `dataset`
    /// changed. `build` runs outside the lock; its result is kept only if the dataset did not change meanwhile.
    /// - Parameter answersWithoutBody: whether the request is answered by a 304 from this
    ///   representation: then a current one without its bodies serves, as it is (see
    ///   ``Validators/answersNotModified(_:with:)``); without it, one with its bodies is returned.
    ///   It runs under the store's lock, so it must not call the store.
    func representation<Failure: Error>(
        of dataset: Dataset, key: String, answersWithoutBody: (Representation) -> Bool = { _ in false },
        build: (MockData) throws(Failure) -> RepresentationContent
    ) throws(Failure) -> Representation {
        // The common case, a kept representation of unchanged data, copies nothing but it.
        let lookup = state.withLock { state -> Lookup in
            state.lookups += 1
            let kept = state.entries[dataset]?[key]
            let generation = state.generations[dataset, default: 0]
            if let kept, kept.generation == generation {
                let representation = kept.representation
                if representation.hasBodies || answersWithoutBody(representation) {
                    state.entries[dataset]?[key]?.lastServed = state.lookups
                    return .current(representation)
                }
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
            // The same bytes: the same validators, `Last-Modified` included.
            representation = previous.hasBodies ? previous : Representation(content, lastModified: previous.lastModified ?? content.changed.date(lastWrite: lastChange))
        } else {
            representation = Representation(content, lastModified: content.changed.date(lastWrite: lastChange))
        }
        state.withLock { state in
            if state.generations[dataset, default: 0] == generation {
                state.keep(Entry(generation: generation, kept: .whole(representation), lastServed: state.lookups),
                           as: key, of: dataset, budget: byteBudget, validatorBudget: validatorBudget)
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
