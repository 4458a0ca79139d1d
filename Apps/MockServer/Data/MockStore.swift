import Models
import Synchronization

// MARK: - MockStore

/// The server's state: the data, and the encoded representations of it.
///
/// Representations are cached by key (route plus canonical query) together with the generation
/// of their dataset; a write bumps the generation, so only the representations built from the
/// changed dataset are rebuilt, and they get new validators only if their bytes differ.
final class MockStore: Sendable {
    private struct CachedRepresentation {
        var generation: Int
        var representation: Representation
    }

    private struct State {
        var data: MockData
        var generations: [Dataset: Int] = [:]
        var cache: [Dataset: [String: CachedRepresentation]] = [:]
    }

    private let seed: SeedData
    private let state: Mutex<State>

    init(seed: SeedData) {
        self.seed = seed
        self.state = Mutex(State(data: MockData(seed: seed)))
    }

    // MARK: Reading

    /// The current data (a cheap copy-on-write snapshot).
    var data: MockData {
        state.withLock { $0.data }
    }

    /// The cached representation for `key`, or a new one built from a snapshot of the data.
    ///
    /// `build` runs outside the lock; its result is kept only if the dataset did not change meanwhile.
    func representation<Failure: Error>(
        of dataset: Dataset, key: String, build: (MockData) throws(Failure) -> Representation
    ) throws(Failure) -> Representation {
        let (hit, snapshot, generation) = state.withLock { state in
            let generation = state.generations[dataset, default: 0]
            let hit = state.cache[dataset]?[key].flatMap { $0.generation == generation ? $0.representation : nil }
            return (hit, state.data, generation)
        }
        if let hit { return hit }
        let representation = try build(snapshot)
        state.withLock { state in
            if state.generations[dataset, default: 0] == generation {
                state.cache[dataset, default: [:]][key] = CachedRepresentation(
                    generation: generation, representation: representation
                )
            }
        }
        return representation
    }

    // MARK: Writing

    /// Runs `change` on the data under the lock and invalidates the cached representations of
    /// `dataset`; the change is atomic with respect to every other request.
    func write<Result: Sendable>(_ dataset: Dataset, _ change: (inout MockData) throws(APIError) -> Result) throws(APIError) -> Result {
        try state.withLock { (state: inout State) throws(APIError) -> Result in
            let result = try change(&state.data)
            state.generations[dataset, default: 0] += 1
            state.cache[dataset] = nil
            return result
        }
    }

    /// Back to the seeded state.
    func reset() {
        state.withLock { state in
            state.data = MockData(seed: seed)
            for dataset in Dataset.allCases {
                state.generations[dataset, default: 0] += 1
            }
            state.cache = [:]
        }
    }
}
