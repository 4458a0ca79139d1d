import Composition
import MirrorStore
import SyncEngine

/// Several collections synced at once (`--all`, `--watch`), ``limit`` at a time, each with its
/// own options and no output of its own.
enum ParallelSyncs {
    /// Collections synced at once: several origins answer in parallel, and one slow API does
    /// not hold the others up; few enough that the machine stays usable.
    static let limit = 3

    /// Syncs `targets`; `each` hears each result as it ends, in the order they end.
    static func run(_ targets: [SyncTarget], command: SyncCommand, services: FreshServices, store: any MirrorStore,
                    each: (SyncTarget, Result<SyncSummary, any Error>) -> Void) async {
        await withTaskGroup(of: (SyncTarget, Result<SyncSummary, any Error>).self) { group in
            var waiting = targets[...]
            func startNext() {
                guard let target = waiting.popFirst() else { return }
                group.addTask {
                    do {
                        let options = try command.syncOptions(for: target)
                        return (target, .success(try await CollectionSync(network: services, store: store).run(options)))
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
