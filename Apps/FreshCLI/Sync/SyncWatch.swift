import Composition
import Foundation
import MirrorStore
import NamedSources
import SyncEngine
import SyncOrchestration

/// `fresh sync NAME --watch [INTERVAL]`, `fresh sync --all --watch [INTERVAL]`: syncs again and
/// again until Ctrl-C, each collection when its ``WatchSchedule`` says; a `Retry-After` is
/// waited for inside a sync (up to --max-wait). One line per sync that changed something
/// (`[14:02:11] synced …`), one per new error, nothing while nothing changes. The sources file
/// is read again before each round, so a source added meanwhile is synced too.
struct SyncWatch {
    /// The source or collection watched, or `nil` for every one (`--all`).
    let target: String?
    let overrides: SyncOverrides
    let output: SyncOutput
    let storage: StorageOptions
    let services: FreshServices
    let interval: Duration?

    func run() async throws {
        let sources = try SourcesFile.located().load()
        // The mirrors watched: the one a named source lives in; with --all, each mirror sources
        // name (see ``MirrorGroups``), side by side.
        let stores = target == nil ? MirrorGroups.of(sources, storeFlag: storage.store).map(\.given)
            : [sources.first { $0.name == target }?.store]
        try await services.finishing {
            if !output.quiet { services.warnings.forEach { StandardError.write("fresh: warning: \($0)") } }
            try await Interruption.cancellingOnSignal {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for given in stores {
                        group.addTask { try await storage.withMirror(given: given) { store in try await watch(store, given: given) } }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    private func watch(_ store: any MirrorStore, given: String?) async throws {
        var schedule = WatchSchedule(interval: interval)
        var lastError: [String: String] = [:]
        var watched: [SyncTarget]?
        var sourcesProblem: String?
        while true {
            let targets: [SyncTarget]
            do {
                targets = try await currentTargets(store, given: given)
                sourcesProblem = nil
            } catch where watched != nil && !(error is CancellationError) {
                // The sources file is edited by hand, and may be read half-saved: said once, and
                // the watch goes on with the sources as they were until the file reads again.
                let line = ErrorDescription.line(error)
                if sourcesProblem != line { StandardError.write("fresh: \(line); watching the sources as they last read") }
                sourcesProblem = line
                targets = watched ?? []
            }
            watched = targets
            let now = ContinuousClock.now
            // Each ended sync by its target's name (the schedule's key) and its collection's.
            var ended: [(name: String, collection: String?, retryAfter: Duration?)] = []
            await ParallelSyncs.run(targets.filter { schedule.isDue($0.name, at: now) }, overrides: overrides, network: services, store: store) { target, result in
                switch result {
                case .success(let summary):
                    if summary.created + summary.changed + summary.removed > 0 { say(summary) }
                    // A partial mirror is said once, as an error is, until it changes.
                    let partial = summary.partial.joined(separator: "; ")
                    if !partial.isEmpty, lastError[target.name] != partial { _ = output.partialStatus(of: summary, target: target.name) }
                    lastError[target.name] = partial.isEmpty ? nil : partial
                    ended.append((target.name, summary.collection, nil))
                case .failure(let error):
                    guard !SyncStopped.isInterruption(error) else { return }
                    let line = ErrorDescription.line(error)
                    if lastError[target.name] != line { StandardError.write("fresh: \(target.name): \(line)") }
                    lastError[target.name] = line
                    // A server that asked to wait longer than a sync would is asked again when it said.
                    let retryAfter: Duration? = if case SyncError.gaveUp(_, _, _, let wait?) = error { wait } else { nil }
                    ended.append((target.name, nil, retryAfter))
                }
            }
            for (name, collection, retryAfter) in ended {
                if let collection {
                    schedule.synced(name, freshFor: interval == nil ? try await firstPageFreshness(of: collection, store: store) : nil)
                } else {
                    schedule.failed(name, retryAfter: retryAfter)
                }
            }
            try Task.checkCancellation()
            try await Task.sleep(until: schedule.next(of: targets.map(\.name)))
        }
    }

    /// The source or collection watched, read again each round (with --all, those of the
    /// mirror `given` names).
    private func currentTargets(_ store: any MirrorReading, given: String?) async throws -> [SyncTarget] {
        let sources = try SourcesFile.located().load()
        guard let target else {
            let members = MirrorGroups.of(sources, storeFlag: storage.store).first { $0.given == given }?.sources ?? []
            return try await MirrorGroups.targets(sources: members, store: store, namedElsewhere: sources)
        }
        return [try await SyncTarget.resolve(target, sources: sources, store: store)]
    }

    /// How long the stored answer for the collection's first page stays fresh (its URL is
    /// the first page, as its last sync asked for it).
    private func firstPageFreshness(of name: String, store: any MirrorReading) async throws -> Duration? {
        try await store.collection(named: name).flatMap { URL(string: $0.url) }.flatMap { services.freshness(ofPage: $0) }
    }

    private func say(_ summary: SyncSummary) {
        if output.json {
            try? JSONOutput.print(encoding: summary)
        } else if !output.quiet {
            let clock = DateFormatter()
            clock.dateFormat = "HH:mm:ss"
            StandardOutput.line("[\(clock.string(from: Date()))] \(summary.line)")
        }
    }
}
