import Foundation
import SyncEngine

/// How the sync commands speak: a summary line on stdout (or JSON), nothing but errors when
/// quiet, and a partial mirror said on stderr with its exit status.
struct SyncOutput: Sendable {
    var json = false
    var quiet = false
    /// Exit 0 when the mirror may be partial (the line is still said).
    var allowPartial = false

    /// Says on stderr why a synced mirror may be partial, one line each (named by `target` when
    /// several collections sync); returns the exit status that goes with it: 9, or `nil` with
    /// --allow-partial or when nothing says so.
    func partialStatus(of summary: SyncSummary, target: String? = nil) -> Int32? {
        guard !summary.partial.isEmpty else { return nil }
        fflush(nil) // stdout first: the line follows the summary it qualifies, in a file or pipe too
        for reason in summary.partial {
            StandardError.write("fresh: \(target.map { "\($0): " } ?? "")the mirror may be partial: \(reason)")
        }
        return allowPartial ? nil : 9
    }
}
