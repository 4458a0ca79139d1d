import ArgumentParser
import Foundation
import MirrorStore
import NamedSources
import SyncEngine

/// `fresh sync --all`: every source, then every collection synced before that no source names,
/// a few at a time (``ParallelSyncs``), each with its own options; one line each (its summary,
/// or `fresh: NAME: why`), and the exit status of the worst.
struct SyncAll {
    let command: SyncCommand
    let services: FreshServices

    func run() async throws {
        let sources = try SourcesFile.located().load()
        let outcome = Outcome()
        try await services.finishing {
            try await command.storage.withMirror { store in
                if !command.quiet { services.warnings.forEach { StandardError.write("fresh: warning: \($0)") } }
                let targets = try await Self.targets(sources: sources, store: store)
                guard !targets.isEmpty else {
                    StandardError.write("fresh: nothing to sync yet: 'fresh source add NAME URL' names a source")
                    return
                }
                try await Interruption.cancellingOnSignal {
                    await ParallelSyncs.run(targets, command: command, services: services, store: store) { target, result in
                        switch result {
                        case .success(let summary):
                            outcome.summaries.append(summary)
                            if !command.json && !command.quiet { print(summary.line) }
                            if let status = command.partialStatus(of: summary, target: target.name) {
                                outcome.worst = Self.worse(outcome.worst, status)
                            }
                        case .failure(let error):
                            outcome.worst = Self.worse(outcome.worst, FailureReport.exitCode(for: error))
                            StandardError.write("fresh: \(target.name): \(ErrorDescription.line(error))")
                        }
                    }
                }
            }
        }
        if command.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(outcome.summaries), as: UTF8.self))
        }
        if outcome.worst != 0 { throw ExitCode(outcome.worst) }
    }

    /// What the syncs left: their summaries and the worst exit status. Only ``ParallelSyncs``'
    /// result loop writes it, one result at a time.
    private final class Outcome: @unchecked Sendable {
        var summaries: [SyncSummary] = []
        var worst: Int32 = 0
    }

    /// Every source, then every collection no source names.
    static func targets(sources: [Source], store: any MirrorStore) async throws -> [SyncTarget] {
        let others = try await store.collections().filter { collection in !sources.contains { $0.name == collection.name } }
        return sources.map(SyncTarget.source) + others.map(SyncTarget.collection)
    }

    /// The exit status that says more: an interruption over everything, else the higher code.
    static func worse(_ a: Int32, _ b: Int32) -> Int32 {
        a == 130 || b == 130 ? 130 : max(a, b)
    }
}
