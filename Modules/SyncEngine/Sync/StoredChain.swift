import Foundation
import MirrorStore
import Synchronization

/// The page records the last pass stored, as far as a walk needs them: a window of
/// ``windowSize`` records from the page being read on, read from the store as the walk goes, so
/// that a sync's memory does not grow with the collection (a walk of 100,000 pages held their
/// records, and their ETags handed to the page cache, whole: 100 MB more at 10,000,000 items).
///
/// Each window's ETags are handed to the page validators (``PageValidators/remember(_:)``) when
/// it is read, and taken back when the walk leaves it.
///
/// With `readsAhead` (the record-read-ahead speed-up, `StoredChain+ReadAhead.swift`) the records
/// come half a window at a time, the next half read while the walk is in the one before.
final class StoredChain: Sendable {
    /// Records held at most: a window outlasts any lookahead (``SyncPass/maximumLookahead``).
    static let windowSize = 512

    struct Window {
        var range: Range<Int> = 0..<0
        var records: [Int: PageRecord] = [:]
        /// Whether the store holds no record past the window.
        var isLast = false

        /// Whether the window holds page `index` and the `ahead` pages after it (those the store has).
        func holds(_ index: Int, ahead: Int) -> Bool {
            range.contains(index) && (isLast || index + ahead < range.upperBound)
        }
    }

    /// Reads the stored records of the pages in a range (``PassWriting/pages(of:in:)``).
    typealias RecordReader = @Sendable (Range<Int>) async throws -> [Int: PageRecord]

    private let read: RecordReader
    private let validators: any PageValidators
    let readsAhead: Bool
    let window = Mutex(Window())
    /// The records right after the window, being read (`StoredChain+ReadAhead.swift`).
    let following = Mutex<(range: Range<Int>, reading: Task<Window, any Error>)?>(nil)

    init(readingWith read: @escaping RecordReader, validators: any PageValidators, readsAhead: Bool) {
        self.read = read
        self.validators = validators
        self.readsAhead = readsAhead
    }

    /// How many records one read asks for.
    var readSize: Int { readsAhead ? Self.windowSize / 2 : Self.windowSize }

    /// The record of page `index`, when the window holds it (``prepare(from:ahead:)`` reads it).
    subscript(index: Int) -> PageRecord? {
        window.withLock { $0.records[index] }
    }

    /// Makes the window hold `index` and the `ahead` pages after it: the records read ahead, when
    /// they follow on, else a read from `index`. Then starts reading the next records, if due.
    func prepare(from index: Int, ahead: Int = SyncPass.maximumLookahead) async throws {
        if !window.withLock({ $0.holds(index, ahead: ahead) }) {
            if let next = following.withLock({ $0.take() }) { try await append(next, from: index) }
            if !window.withLock({ $0.holds(index, ahead: ahead) }) {
                replace(with: try await records(in: index..<index + readSize))
            }
        }
        readAheadIfDue(from: index)
    }

    /// The records of the pages at `indexes` (those the store holds), read on their own, their
    /// ETags handed to the page validators.
    func records(at indexes: [Int]) async throws -> [PageRecord] {
        var found: [PageRecord] = []
        for index in indexes {
            if let record = try await read(index..<index + 1)[index] { found.append(record) }
        }
        validators.remember(found.compactMap(\.eTag))
        return found
    }

    /// Takes back from the page validators what the window handed them (the pass is over).
    func close() {
        following.withLock { $0.take() }?.reading.cancel()
        validators.forget(window.withLock { $0.records.values.compactMap { URL(string: $0.url) } })
    }

    // MARK: Windows

    func records(in range: Range<Int>) async throws -> Window {
        let records = try await read(range)
        return Window(range: range, records: records, isLast: records.count < range.count)
    }

    /// The window becomes `new`; what the walk left is forgotten, what is new remembered.
    func replace(with new: Window) {
        let old = window.withLock { window in
            defer { window = new }
            return window
        }
        validators.forget(old.records.values.filter { new.records[$0.pageIndex] != $0 }.compactMap { URL(string: $0.url) })
        validators.remember(new.records.values.filter { old.records[$0.pageIndex] != $0 }.compactMap(\.eTag))
    }
}

extension PageRecord {
    /// The ETag the last pass kept for this page, for the page validators.
    fileprivate var eTag: PageETag? {
        guard let tag = validator?.eTagValue, let url = URL(string: url) else { return nil }
        return PageETag(url: url, tag: tag)
    }
}
