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
final class StoredChain: Sendable {
    /// Records read at once: a window outlasts any lookahead (``SyncPass/maximumLookahead``).
    static let windowSize = 512

    private struct Window {
        var range: Range<Int> = 0..<0
        var records: [Int: PageRecord] = [:]
        /// Whether the store holds no record past the window.
        var isLast = false
    }

    private let store: any PassWriting
    private let collectionID: Int64
    private let validators: any PageValidators
    private let window = Mutex(Window())

    init(store: any PassWriting, collectionID: Int64, validators: any PageValidators) {
        self.store = store
        self.collectionID = collectionID
        self.validators = validators
    }

    /// The record of page `index`, when the window holds it (``prepare(from:ahead:)`` reads it).
    subscript(index: Int) -> PageRecord? {
        window.withLock { $0.records[index] }
    }

    /// Reads the window from `index` on unless it holds `index` and the `ahead` pages after it.
    func prepare(from index: Int, ahead: Int = SyncPass.maximumLookahead) async throws {
        let current = window.withLock { $0 }
        let holds = current.range.contains(index) && (current.isLast || index + ahead < current.range.upperBound)
        guard !holds else { return }
        let range = index..<index + Self.windowSize
        let records = try await store.pages(of: collectionID, in: range)
        let left = current.records.values.filter { !range.contains($0.pageIndex) }.compactMap { URL(string: $0.url) }
        validators.forget(left)
        validators.remember(records.values.compactMap { page in
            guard let tag = page.validator?.eTagValue, let url = URL(string: page.url) else { return nil }
            return PageETag(url: url, tag: tag)
        })
        window.withLock { $0 = Window(range: range, records: records, isLast: records.count < Self.windowSize) }
    }

    /// The records of the pages at `indexes` (those the store holds), read on their own, their
    /// ETags handed to the page validators.
    func records(at indexes: [Int]) async throws -> [PageRecord] {
        var found: [PageRecord] = []
        for index in indexes {
            if let record = try await store.pages(of: collectionID, in: index..<index + 1)[index] { found.append(record) }
        }
        validators.remember(found.compactMap { page in
            guard let tag = page.validator?.eTagValue, let url = URL(string: page.url) else { return nil }
            return PageETag(url: url, tag: tag)
        })
        return found
    }

    /// Takes back from the page validators what the window handed them (the pass is over).
    func close() {
        validators.forget(window.withLock { $0.records.values.compactMap { URL(string: $0.url) } })
    }
}
