import Synchronization

/// The requests a mirror could not answer, as the URLs on the origin that a sync would fetch:
/// each once, in the order first missed (`GET /_admin/misses`, and `fresh sync --input-file`).
final class MissLog: Sendable {
    /// Most URLs kept: a client walking a mirror it does not match misses on every page.
    static let capacity = 10_000

    private struct State {
        var urls: [String] = []
        var seen: Set<String> = []
    }

    private let state = Mutex(State())

    /// Notes a miss of `url` (nothing when it was missed before, or the log is full).
    func record(_ url: String) {
        state.withLock { state in
            guard state.urls.count < Self.capacity, state.seen.insert(url).inserted else { return }
            state.urls.append(url)
        }
    }

    /// The URLs missed, first missed first.
    var urls: [String] { state.withLock { $0.urls } }

    /// Forgets every miss (part of `/_admin/reset`).
    func clear() { state.withLock { $0 = State() } }
}
