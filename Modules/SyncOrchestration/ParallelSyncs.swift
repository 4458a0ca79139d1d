import MirrorStore
import SyncEngine

/// Several collections synced at once (`--all`, `--watch`), ``limit`` at a time, each with its
/// own options (``SyncOverrides`` over what its source or record says) and no output of its own.
public enum ParallelSyncs {
    /// Collections synced at once: several origins answer in parallel, and one slow API does
    /// not hold the others up; few enough that the machine stays usable.
    public static let limit = 3

    /// Syncs `targets`; `each` hears each result as it ends, in the order they end.
    public static func run(_ targets: [SyncTarget], overrides: SyncOverrides, network: any SyncNetwork, store: any SyncStore,
                           each: (SyncTarget, Result<SyncSummary, any Error>) -> Void) async {
        await withTaskGroup(of: (SyncTarget, Result<SyncSummary, any Error>).self) { group in
            var waiting = targets[...]
            func startNext() {
                guard let target = waiting.popFirst() else { return }
                group.addTask {
                    do {
                        let options = try overrides.options(for: target)
                        return (target, .success(try await CollectionSync(network: network, store: store).run(options)))
                    } catch {
                        return (target, .failure(error))
                    }
                }
            }
            for _ in 0..<limit { startNext() }
            for await (target, result) in group {
                each(target, result)
                startNext()
            }
        }
    }
}
