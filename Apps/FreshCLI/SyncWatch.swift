import Composition
import Foundation
import MirrorStore
import NamedSources
import SyncEngine

/// `fresh sync NAME --watch [INTERVAL]`, `fresh sync --all --watch [INTERVAL]`: syncs again and
/// again until Ctrl-C. Each collection is synced again after INTERVAL, or, without one, when its
/// first page's stored answer goes stale (its max-age), so no request is sent while the pages
/// are fresh; a `Retry-After` is waited for inside a sync (up to --max-wait), and a sync that
/// gave up on a longer one is tried again no sooner than the server said. One line per sync that
/// changed something (`[14:02:11] synced …`), one per new error, nothing while nothing changes.
/// The sources file is read again before each round, so a source added meanwhile is synced too.
struct SyncWatch {
    let command: SyncCommand
    let services: FreshServices
    let interval: Duration?

    /// Without an interval: the wait when the pages give no lifetime (`max-age=0`, `no-cache`),
    /// and the shortest and longest waits.
    static let unknownLifetime = Duration.seconds(60)
    static let shortest = Duration.seconds(5)
    static let longest = Duration.seconds(3600)

    func run() async throws {
        let sources = try SourcesFile.located().load()
        // The mirrors watched: the one a named source lives in; with --all, each mirror sources
        // name (see `SyncAll.storeGroups`), side by side.
        let stores = command.all ? SyncAll.storeGroups(of: sources, storage: command.storage).map(\.given)
            : [sources.first { $0.name == command.target }?.store]
        try await services.finishing {
            if !command.quiet { services.warnings.forEach { StandardError.write("fresh: warning: \($0)") } }
            try await Interruption.cancellingOnSignal {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for given in stores {
                        group.addTask { try await command.storage.withMirror(given: given) { store in try await watch(store, given: given) } }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    private func watch(_ store: any MirrorStore, given: String?) async throws {
        var due: [String: ContinuousClock.Instant] = [:]
        var lastError: [String: String] = [:]
        while true {
            let targets = try await currentTargets(store, given: given)
            let now = ContinuousClock.now
            var ended: [(name: String, synced: Bool, retryAfter: Duration?)] = []
            await ParallelSyncs.run(targets.filter { (due[$0.name] ?? now) <= now }, command: command, services: services, store: store) { target, result in
                switch result {
                case .success(let summary):
                    if summary.created + summary.changed + summary.removed > 0 { say(summary) }
                    // A partial mirror is said once, as an error is, until it changes.
                    let partial = summary.partial.joined(separator: "; ")
                    if !partial.isEmpty, lastError[target.name] != partial { _ = command.partialStatus(of: summary, target: target.name) }
                    lastError[target.name] = partial.isEmpty ? nil : partial
                    ended.append((summary.collection, true, nil))
                case .failure(let error):
                    guard !SyncStopped.isInterruption(error) else { return }
                    let line = ErrorDescription.line(error)
                    if lastError[target.name] != line { StandardError.write("fresh: \(target.name): \(line)") }
                    lastError[target.name] = line
                    // A server that asked to wait longer than a sync would is asked again when it said.
                    let retryAfter: Duration? = if case SyncError.gaveUp(_, _, _, let wait?) = error { wait } else { nil }
                    ended.append((target.name, false, retryAfter))
                }
            }
            for (name, synced, retryAfter) in ended {
                let wait = synced ? try await nextSync(of: name, store: store) : interval ?? Self.unknownLifetime
                due[name] = .now + max(wait, retryAfter ?? .zero)
            }
            try Task.checkCancellation()
            let next = targets.compactMap { due[$0.name] }.min() ?? .now + (interval ?? Self.unknownLifetime)
            try await Task.sleep(until: next)
        }
    }

    /// The source or collection watched, read again each round (with --all, those of the
    /// mirror `given` names).
    private func currentTargets(_ store: any MirrorReading, given: String?) async throws -> [SyncTarget] {
        let sources = try SourcesFile.located().load()
        if command.all {
            let members = SyncAll.storeGroups(of: sources, storage: command.storage).first { $0.given == given }?.sources ?? []
            return try await SyncAll.targets(sources: members, store: store, namedElsewhere: sources)
        }
        return [try await SyncTarget.resolve(command.target ?? "", sources: sources, store: store)]
    }

    /// When to sync a collection again: after the interval given, else when its first page goes stale.
    private func nextSync(of name: String, store: any MirrorReading) async throws -> Duration {
        if let interval { return interval }
        // The collection's URL is its first page, as its last sync asked for it.
        guard let url = try await store.collection(named: name).flatMap({ URL(string: $0.url) }),
              let lifetime = services.freshness(ofPage: url) else { return Self.unknownLifetime }
        return min(max(lifetime, Self.shortest), Self.longest)
    }

    private func say(_ summary: SyncSummary) {
        if command.json {
            try? JSONOutput.print(encoding: summary)
        } else if !command.quiet {
            let clock = DateFormatter()
            clock.dateFormat = "HH:mm:ss"
            StandardOutput.line("[\(clock.string(from: Date()))] \(summary.line)")
        }
    }
}
