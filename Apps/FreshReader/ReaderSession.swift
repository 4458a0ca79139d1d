import Fetcher
import Foundation
import Models
import Storage
import SyncEngine
import TerminalText

/// One run of the reader, from the first frame to the restored terminal: the UI loop on its
/// own thread; the Fetcher's states and the database observation feeding its mailbox; one
/// background refresh at start; signals turned into a clean quit. Run it after
/// ``TerminalLocale/activate()``.
struct ReaderSession {
    let items: ItemDatabase
    /// The collection shown, when there is one.
    let collectionID: Int64?
    let fetcher: Fetcher<[Post]>
    /// The posts read before the terminal started, shown in the first frame.
    let storedPosts: [Post]
    /// Whether to refresh once at start (only when there is something to refresh).
    let refreshAtStart: Bool

    func run() async throws {
        let inbox = Mailbox<ReaderEvent>()
        let signals = SignalWatch { inbox.post(.quit) }
        defer { signals.cancel() }
        let feeds = [
            Task { for await state in fetcher.states() { inbox.post(.fetch(state)) } },
            Task {
                guard let collectionID else { return }
                do {
                    for try await stored in items.observeItems(in: collectionID) {
                        inbox.post(.posts(stored.enumerated().map { CollectionPosts.post(from: $0.element, index: $0.offset) }))
                    }
                } catch {
                    let failure = FetchFailure(message: "cannot watch the database: \(ErrorDescription.line(error))", isOffline: false)
                    inbox.post(.fetch(FetchState(value: nil, status: .failed(failure))))
                }
            },
        ]
        defer { feeds.forEach { $0.cancel() } }
        let refresh: @Sendable () -> Void = { Task { await fetcher.refresh() } }
        if refreshAtStart { refresh() }
        try await UIThread.run {
            let screen = try Screen.start()
            defer { screen.stop() }
            var loop = ReaderLoop(state: ReaderState(posts: storedPosts, size: screen.size), screen: screen,
                                  inbox: inbox, refresh: refresh)
            _ = loop.run()
        }
    }
}
