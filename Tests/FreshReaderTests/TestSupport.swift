import Foundation
import MirrorStore
import Synchronization
import TerminalText
@testable import FreshReader

/// The real `wcwidth`, measured under a UTF-8 locale switched on once for the whole run
/// (global initialisers run exactly once, so parallel tests never race on `setlocale`).
let cells: DisplayWidth = {
    precondition(TerminalLocale.activate(), "the tests need a UTF-8 locale (C.UTF-8)")
    return .system
}()

let utc = TimeZone(identifier: "UTC")!

/// A collection in memory: rows in order (ten per page), each item's JSON, and a log of how
/// many rows each read returned, so tests can see that the screen reads only what it shows.
final class MemoryLibrary: ReaderLibrary {
    struct Stored {
        var entry: CollectionEntry
        var rows: [ListRow]
        var json: [Int64: String] = [:]
    }

    private let state: Mutex<[Stored]>
    private let reads = Mutex<[Int]>([])
    private let unreadable = Mutex(false)
    /// Whether a search answers at once (the search index up to date), as `searchIsReady` says.
    let searchIndexIsCurrent = Mutex(true)

    /// A read failure, as a damaged or vanished file gives.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "disk I/O error" }
    }

    init(_ collections: [Stored]) {
        state = Mutex(collections)
    }

    /// One collection called `name` of `count` items titled "Item 1"…, by "Author N".
    convenience init(name: String = "posts", count: Int, hasNextPage: Bool = false) {
        self.init([Self.collection(id: 1, name: name, count: count, hasNextPage: hasNextPage)])
    }

    static func collection(id: Int64, name: String, count: Int, hasNextPage: Bool = false, firstItem: Int = 1) -> Stored {
        var stored = Stored(entry: CollectionEntry(id: id, name: name, url: "http://127.0.0.1:1/\(name)", itemCount: count,
                                                   lastSync: Date(timeIntervalSince1970: 1_700_000_000), lastError: nil,
                                                   hasNextPage: hasNextPage), rows: [])
        stored.rows = (firstItem..<(firstItem + count)).map(row)
        for row in stored.rows { stored.json[row.id] = #"{"id":\#(row.id),"title":"\#(row.title!)","author":"\#(row.subtitle!)"}"# }
        return stored
    }

    static func row(_ number: Int) -> ListRow {
        ListRow(id: Int64(number), key: String(number), at: ItemPosition(pageIndex: (number - 1) / 10, position: (number - 1) % 10),
                title: "Item \(number)", subtitle: "Author \(number)")
    }

    /// Changes the stored collections (another process writing).
    func change(_ body: (inout [Stored]) -> Void) {
        state.withLock { body(&$0) }
    }

    /// Appends the next `count` items to collection `index` (a page arriving).
    func append(_ count: Int, to index: Int = 0, hasNextPage: Bool) {
        change { collections in
            let first = collections[index].rows.count + 1
            let more = MemoryLibrary.collection(id: 0, name: "", count: count, firstItem: first)
            collections[index].rows += more.rows
            collections[index].json.merge(more.json) { $1 }
            collections[index].entry.itemCount = collections[index].rows.count
            collections[index].entry.hasNextPage = hasNextPage
        }
    }

    /// The row counts of every read so far, then forgets them.
    func takeReads() -> [Int] {
        reads.withLock { reads in
            defer { reads.removeAll() }
            return reads
        }
    }

    func collections() throws -> [CollectionEntry] {
        state.withLock { $0.map(\.entry) }
    }

    func open(_ collectionID: Int64) throws -> any CollectionReading {
        MemoryCollection(library: self, id: collectionID)
    }

    fileprivate func stored(_ id: Int64) -> Stored {
        state.withLock { $0.first { $0.entry.id == id }! }
    }

    /// The collection `id`, or ``CollectionRemoved`` when it is gone (another process removed it).
    fileprivate func storedOrRemoved(_ id: Int64) throws -> Stored {
        guard let found = state.withLock({ $0.first { $0.entry.id == id } }) else { throw CollectionRemoved() }
        return found
    }

    /// Makes every later read of rows fail with ``Unreadable``.
    func makeUnreadable() {
        unreadable.withLock { $0 = true }
    }

    fileprivate func read(_ rows: some Collection<ListRow>) throws -> [ListRow] {
        if unreadable.withLock({ $0 }) { throw Unreadable() }
        reads.withLock { $0.append(rows.count) }
        return Array(rows)
    }
}

struct MemoryCollection: CollectionReading {
    let library: MemoryLibrary
    let id: Int64

    private var rows: [ListRow] { library.stored(id).rows }

    func entry() throws -> CollectionEntry { try library.storedOrRemoved(id).entry }

    func rows(from start: ItemPosition?, limit: Int) throws -> [ListRow] {
        try library.read(rows.filter { start == nil || $0.at >= start! }.prefix(limit))
    }

    func rows(before end: ItemPosition, limit: Int) throws -> [ListRow] {
        try library.read(rows.filter { $0.at < end }.suffix(limit))
    }

    func rows(atOffset offset: Int, limit: Int) throws -> [ListRow] {
        try library.read(rows.dropFirst(offset).prefix(limit))
    }

    func ordinal(ofItem id: Int64) throws -> Int? {
        rows.firstIndex { $0.id == id }
    }

    func json(ofItem id: Int64) throws -> String? {
        library.stored(self.id).json[id]
    }

    func markShown(upTo sequence: Int) {
        library.change { collections in
            for index in collections.indices where collections[index].entry.id == id {
                collections[index].entry.shownSequence = sequence
            }
        }
    }

    func searchIsReady() throws -> Bool { library.searchIndexIsCurrent.withLock { $0 } }

    func firstMatch(of query: String, after row: ListRow?, backward: Bool) throws -> ListRow? {
        let rows = rows
        let start = row.flatMap { row in rows.firstIndex { $0.id == row.id } } ?? (backward ? rows.count : -1)
        let order = backward ? Array((0..<start).reversed()) + Array((start..<rows.count).reversed())
                             : Array((start + 1)..<rows.count) + Array(0...max(0, min(start, rows.count - 1)))
        return order.lazy.map { rows[$0] }.first { ($0.title ?? "").localizedCaseInsensitiveContains(query) }
    }
}

/// A reader over `library` on a 12 × 60 screen.
func reader(_ library: MemoryLibrary, size: ScreenSize = ScreenSize(rows: 12, columns: 60), collectionID: Int64? = nil,
            prefetch: Int = 3, canFetch: Bool = true) throws -> ReaderState {
    var options = ReaderState.Options()
    options.prefetchDistance = prefetch
    options.canFetch = canFetch
    return try ReaderState(library: library, size: size, collectionID: collectionID, options: options, measure: cells, timeZone: utc)
}

extension ReaderState {
    /// Presses each key in turn; returns the effects that were not `.none`.
    @discardableResult
    mutating func press(_ keys: KeyInput...) -> [Effect] {
        keys.map { handle($0) }.filter { $0 != .none }
    }

    /// Types `text` one character at a time.
    mutating func type(_ text: String) {
        for character in text { _ = handle(.character(character)) }
    }

    /// The screen's text, line by line.
    var screenText: [String] { ReaderFrame.lines(for: self).map(\.text) }
}
