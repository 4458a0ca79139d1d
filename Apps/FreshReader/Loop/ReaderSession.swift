import Composition
import MirrorStore
import SyncEngine

/// One run of the reader, from the first frame to the restored terminal: the UI loop on its
/// own thread; page loads and refreshes in the background feeding its mailbox; another
/// process's writes noticed through `PRAGMA data_version`; signals turned into a clean quit.
/// Run it after ``TerminalLocale/activate()``.
struct ReaderSession {
    let services: FreshServices
    let store: any MirrorStore
    let library: any ReaderLibrary
    /// The collection to open on, if the user named one.
    let collectionID: Int64?
    let options: ReaderState.Options
    /// The background tasks: page loads, refreshes, and the library's shown marks.
    let work: BackgroundWork

    func run() async throws {
        let inbox = Mailbox<ReaderEvent>()
        let signals = SignalWatch { inbox.post(.quit) }
        defer { signals.cancel() }
        // No watcher for a database opened immutable (a read-only directory): nobody writes there.
        let watcher = options.canFetch ? try await store.watchChanges() : nil
        let pages = PageLoader(services: services, store: store, work: work) { inbox.post(.pageLoaded(collectionID: $0, failure: $1)) }
        let refresher = CollectionRefresher(services: services, store: store, work: work) {
            inbox.post(.refresh(collectionID: $0, status: $1, summary: $2))
        }
        let indexer = SearchIndexer(store: store, work: work) { inbox.post(.searchIndexUpdated(collectionID: $0)) }
        let scanner = SearchScanner(store: store, work: work) { inbox.post(.searchedWithoutIndex($0, match: $1, failure: $2)) }
        do {
            try await showScreen(inbox: inbox, watcher: watcher, pages: pages, refresher: refresher, indexer: indexer, scanner: scanner)
        } catch {
            await work.stop()
            throw error
        }
        // Nothing may use the store once the session returns: its caller closes it.
        await work.stop()
    }

    private func showScreen(inbox: Mailbox<ReaderEvent>, watcher: (any ChangeWatch)?, pages: PageLoader,
                            refresher: CollectionRefresher, indexer: SearchIndexer, scanner: SearchScanner) async throws {
        try await UIThread.run { [library, collectionID, options] in
            let screen = try Screen.start(wake: inbox.wake)
            defer { screen.stop() }
            let state = try ReaderState(library: library, size: screen.size, collectionID: collectionID, options: options)
            var loop = ReaderLoop(state: state, screen: screen, inbox: inbox, perform: { effect in
                switch effect {
                case .refresh(let id, let firstPages): refresher.refresh(id, firstPages: firstPages)
                case .loadNextPage(let id): pages.loadNextPage(of: id)
                case .searchWithoutIndex(let search, let after):
                    scanner.search(search, after: after)
                    indexer.update(search.collectionID)
                case .none, .quit: break
                }
            }, databaseChanged: { try watcher?.hasChanged() ?? false })
            _ = loop.run()
        }
    }
}
