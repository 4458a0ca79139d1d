import ArgumentParser
import Composition
import Foundation
import MirrorStore
import NamedSources
import SyncEngine
import SyncOrchestration

/// `fresh sync --all`: every source, then every collection synced before that no source names,
/// a few at a time (``ParallelSyncs``), each with its own options; one line each (its summary,
/// or `fresh: NAME: why`), and the exit status of the worst.
struct SyncAll {
    let overrides: SyncOverrides
    let output: SyncOutput
    let storage: StorageOptions
    let services: FreshServices

    func run() async throws {
        let sources = try SourcesFile.located().load()
        let outcome = Outcome()
        let groups = MirrorGroups.of(sources, storeFlag: storage.store)
        try await services.finishing {
            if !output.quiet { services.warnings.forEach { StandardError.write("fresh: warning: \($0)") } }
            // One Ctrl-C stops the whole run: the syncs under way, and no other mirror is opened.
            let synced = try await Interruption.cancellingOnSignal {
                var synced = 0
                // One mirror after another: the default one first (with the collections no source
                // names), then each store sources name (see ``MirrorGroups``).
                for (given, members) in groups where !Task.isCancelled {
                    synced += try await storage.withMirror(given: given) { store in
                        let targets = try await MirrorGroups.targets(sources: members, store: store, namedElsewhere: sources)
                        await syncAll(targets, store: store, outcome: outcome)
                        return targets.count
                    }
                }
                return synced
            }
            if synced == 0 { StandardError.write("fresh: nothing to sync yet: 'fresh source add NAME URL' names a source") }
        }
        if output.json { try JSONOutput.print(encoding: outcome.summaries) }
        if outcome.worst != 0 { throw ExitCode(outcome.worst) }
    }

    private func syncAll(_ targets: [SyncTarget], store: any MirrorStore, outcome: Outcome) async {
        await ParallelSyncs.run(targets, overrides: overrides, network: services, store: store) { target, result in
            switch result {
            case .success(let summary):
                outcome.summaries.append(summary)
                if !output.json && !output.quiet { StandardOutput.line(summary.line) }
                if let status = output.partialStatus(of: summary, target: target.name) {
                    outcome.worst = Self.worse(outcome.worst, status)
                }
            case .failure(let error):
                outcome.worst = Self.worse(outcome.worst, FailureReport.exitCode(for: error))
                StandardError.write("fresh: \(target.name): \(ErrorDescription.line(error))")
            }
        }
    }

    /// What the syncs left: their summaries and the worst exit status. Only ``ParallelSyncs``'
    /// result loop writes it, one result at a time.
    private final class Outcome: @unchecked Sendable {
        var summaries: [SyncSummary] = []
        var worst: Int32 = 0
    }

    /// The exit status that says more: an interruption over everything, else the higher code.
    static func worse(_ a: Int32, _ b: Int32) -> Int32 {
        a == 130 || b == 130 ? 130 : max(a, b)
    }
}
