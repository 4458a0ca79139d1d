import Fetcher
import Foundation
import MirrorStore
import Pagination
import SyncEngine
import TerminalText

/// Everything the reader shows, and how keys and news from the background change it. No
/// ncurses and no clock: storage comes in through ``ReaderLibrary`` (a window of rows at a
/// time), work that takes long goes out as an ``Effect``, so every transition is unit-tested.
///
/// Screens: the collection list (when several are stored), an item list, an open item, and
/// text (help, the full status message). `q` goes back, and quits from the first screen.
public struct ReaderState: Sendable {
    /// Which screen is showing: the keymap's screens.
    public typealias Mode = Keymap.Screen

    /// What the caller must start after a key or an event.
    public enum Effect: Equatable, Sendable {
        case none
        /// Refresh the collection in the background, these pages (on screen) first.
        case refresh(collectionID: Int64, firstPages: [Int])
        /// Fetch the collection's next page in the background.
        case loadNextPage(collectionID: Int64)
        /// Run `search` without the search index, from the item at `after` (the top when `nil`), while
        /// the index is brought up to date, both in the background (a collection's first search, and
        /// every search of a read-only mirror, which keeps no index).
        case searchWithoutIndex(PendingSearch, after: ItemPosition?)
        /// Leave the reader.
        case quit
    }

    /// What the reader was asked to do at start.
    public struct Options: Sendable {
        /// Whether pages may be fetched (not with a read-only data directory).
        public var canFetch = true
        /// Load the next page within this many rows of the end (see ``Prefetch``).
        public var prefetchDistance = 3
        public init() {}
    }

    public internal(set) var mode: Mode
    public let library: any ReaderLibrary
    public let options: Options
    public internal(set) var size: ScreenSize
    public let measure: DisplayWidth
    public let timeZone: TimeZone

    // MARK: Collections

    public internal(set) var collections: [CollectionEntry] = []
    public internal(set) var collectionNavigation: ListNavigation
    /// Whether `q` in an item list goes back to the collection list (it was opened from it).
    public internal(set) var openedFromCollections = false

    // MARK: The open collection

    public internal(set) var source: (any CollectionReading)?
    public internal(set) var entry: CollectionEntry?
    /// Selection and scroll position over the items, plus the footer row.
    public internal(set) var list: ListNavigation
    /// The rows on screen.
    public internal(set) var window = ListWindow()
    /// Infinite scroll's rule for each collection opened: when to load its next page, and
    /// whether one is loading (kept when the user leaves the collection, so coming back while
    /// its page loads never asks for it again).
    var prefetches: [Int64: Prefetch] = [:]
    /// The latest refresh.
    public internal(set) var refresh: FetchState<CollectionEntry>.Status = .idle
    /// What the latest refresh changed: "3 new, 1 updated, 2 removed · 48 × 304".
    public internal(set) var refreshSummary: String?
    /// Rows changed by a page write after this one are marked as new or changed, until opened.
    public internal(set) var seenSequence: Int?
    /// Marked items the user opened since.
    public internal(set) var seenItems: Set<Int64> = []

    // MARK: Text screens and search

    /// The open item's row.
    public internal(set) var openRow: ListRow?
    /// The lines of the open item or text screen, and the scroll position over them.
    public internal(set) var textLines: [ScreenLine] = []
    /// The text screen's lines as given, before wrapping (``wrapText()``).
    var textSource: [String] = []
    public internal(set) var textScroll: TextScroll
    /// Where `q` goes from a text screen.
    var textReturn: Mode = .list
    /// The search being typed (`nil` outside search mode).
    public internal(set) var searchInput: String?
    /// The last search run, for `n` and `N`.
    public internal(set) var lastQuery: String?
    /// A search running in the background, without the search index, while the index is brought
    /// up to date (a collection's first search): whichever ends first answers it.
    public internal(set) var pendingSearch: PendingSearch?

    public struct PendingSearch: Equatable, Sendable {
        public var collectionID: Int64
        public var query: String
        public var backward: Bool
        /// The item the search started after (the selected or open one), if any.
        public var afterItem: Int64?
    }

    /// A note for the status line until the next key (an unknown key, no match, an error).
    public internal(set) var message: String?
    /// A count typed before a key, as less and vi take one: `50G` goes to row 50, `5j` down five.
    public internal(set) var count: Int?

    /// Opens on the collection `collectionID`, else on the only collection, else on the
    /// collection list (several stored) or an empty list (none).
    public init(library: any ReaderLibrary, size: ScreenSize, collectionID: Int64? = nil, options: Options = Options(),
                measure: DisplayWidth = .system, timeZone: TimeZone = .current) throws {
        self.library = library
        self.options = options
        self.size = size
        self.measure = measure
        self.timeZone = timeZone
        collectionNavigation = ListNavigation(count: 0, height: Self.listHeight(size, header: true))
        list = ListNavigation(count: 0, height: Self.listHeight(size, header: false))
        textScroll = TextScroll(lineCount: 0, height: Self.textHeight(size))
        mode = .collections
        if let collectionID {
            // The collection list (a count per collection) is read when the user goes back to it.
            try openCollection(collectionID)
            return
        }
        collections = try library.collections()
        collectionNavigation.reshape(count: collections.count, height: collectionNavigation.height)
        if collections.count == 1 {
            try openCollection(collections[0].id, entry: collections[0])
        } else if collections.isEmpty {
            mode = .list
        }
    }

    /// The effect of the first screen: a refresh of a complete collection, or its first page.
    public mutating func start() -> Effect {
        guard mode == .list, let entry else { return .none }
        // A complete collection is refreshed behind what is shown (the Fetcher's "then refresh");
        // one with a next page loads it as the user comes near the end.
        if !entry.hasNextPage, options.canFetch { return startRefresh() }
        return prefetchIfNear()
    }

    // MARK: Keys

    /// Applies a key: typed into the search while one is being typed, else looked up in the
    /// ``Keymap``; a key it does not know only says so.
    public mutating func handle(_ key: KeyInput) -> Effect {
        message = nil
        if searchInput != nil { return typeSearch(key) }
        if case .character(let character) = key, let digit = character.wholeNumberValue, character.isASCII, digit > 0 || count != nil {
            count = min((count ?? 0) * 10 + digit, 99_999_999)
            message = String(count ?? 0)
            return .none
        }
        let count = self.count
        self.count = nil
        guard let action = Keymap.action(for: key, on: mode) else {
            message = "unknown key \(key.name) — press ? for help"
            return .none
        }
        do {
            return try perform(action, count: count)
        } catch {
            message = "cannot read the database: \(ErrorDescription.line(error))"
            return .none
        }
    }

    private mutating func perform(_ action: Keymap.Action, count: Int?) throws -> Effect {
        switch action {
        case .help: showText(Keymap.helpLines(), returnTo: mode == .text ? textReturn : mode)
        case .statusDetail: showText(statusDetail(), returnTo: mode == .text ? textReturn : mode)
        case .back: return try back()
        // The keymap binds these in an item list and an item, where they do the same.
        case .search: searchInput = ""
        case .nextMatch, .previousMatch: return repeatSearch(backward: action == .previousMatch)
        case .refresh: return startRefresh()
        default:
            switch mode {
            case .collections: return try collectionsAction(action, count: count)
            case .list: return try listAction(action, count: count)
            case .item: return try itemAction(action, count: count)
            case .text: scroll(action, count: count)
            }
        }
        return .none
    }

    private mutating func back() throws -> Effect {
        switch mode {
        case .collections: return .quit
        case .list:
            guard openedFromCollections else { return .quit }
            closeCollection()
            collections = try library.collections()
            collectionNavigation.reshape(count: collections.count, height: Self.listHeight(size, header: true))
        case .item:
            mode = .list
            openRow = nil
        case .text:
            mode = textReturn
            if mode == .item, let openRow { try layOutItem(openRow) }
        }
        return .none
    }

    private mutating func collectionsAction(_ action: Keymap.Action, count: Int?) throws -> Effect {
        guard action == .open else {
            collectionNavigation.apply(action, count: count)
            return .none
        }
        guard collections.indices.contains(collectionNavigation.selected) else { return .none }
        let chosen = collections[collectionNavigation.selected]
        try openCollection(chosen.id, entry: chosen)
        openedFromCollections = true
        return start()
    }

    // MARK: Terminal

    /// Lays everything out again for a new terminal size.
    public mutating func resize(to newSize: ScreenSize) {
        size = newSize
        collectionNavigation.reshape(count: collections.count, height: Self.listHeight(size, header: true))
        list.reshape(count: list.count, height: Self.listHeight(size, header: false))
        if mode == .text { wrapText() } else { textScroll.reshape(lineCount: textLines.count, height: Self.textHeight(size)) }
        do {
            try loadWindow()
            if mode == .item, let openRow { try layOutItem(openRow) }
        } catch {
            message = "cannot read the database: \(ErrorDescription.line(error))"
        }
    }

    /// List rows: the screen minus the status line, and minus a header row for the collections.
    static func listHeight(_ size: ScreenSize, header: Bool) -> Int { max(1, size.rows - (header ? 2 : 1)) }

    /// Text lines: the screen minus the status line.
    static func textHeight(_ size: ScreenSize) -> Int { max(1, size.rows - 1) }
}

extension ListNavigation {
    /// Moves as a navigation key asks; a count moves that many rows, or with `g` and `G` goes to
    /// that row (from 1).
    mutating func apply(_ action: Keymap.Action, count typed: Int? = nil) {
        switch action {
        case .first where typed != nil, .last where typed != nil: select((typed ?? 1) - 1)
        case .down: move(by: typed ?? 1)
        case .up: move(by: -(typed ?? 1))
        case .halfPageDown: move(by: max(1, height / 2))
        case .halfPageUp: move(by: -max(1, height / 2))
        case .pageDown: move(by: height)
        case .pageUp: move(by: -height)
        case .first: select(0)
        case .last: select(count - 1)
        default: break
        }
    }
}
