import Foundation
import JSON
import MirrorStore

/// A speed-up, skippable on a first reading: the first pass into an empty collection is copied
/// in (`COPY … FROM STDIN`), not upserted by `write_pages`, which is what the server does
/// fastest (docs/scaling.md). While the collection held nothing when the pass started, every
/// item stored is one this pass wrote, so each page's items are new: the upsert would insert
/// each one, set nothing aside, and record the page, as the copy does. A key stored already
/// breaks that (a key listed twice): the copy is refused whole, rolled back, and the batch goes
/// through `write_pages`, which refuses the page or keeps the repeat as it always does.
extension PostgresMirror {
    /// Notes that `id`'s pass `pass` started: its pages are copied in if `empty`.
    func noteStart(of pass: Int, of id: Int64, empty: Bool) {
        emptyAtPassStart.withLock { $0[id] = empty ? pass : nil }
    }

    /// Stops copying `id`'s pages in: its pass ended, or items were written otherwise than by
    /// its pages (a catch-up, a merge). A pass started since (a new one, a revisit) has another
    /// number, so ``mayBulkLoad(_:of:pass:)`` finds it without this.
    func stopBulkLoad(of id: Int64) {
        _ = emptyAtPassStart.withLock { $0.removeValue(forKey: id) }
    }

    /// Whether `pages` may be copied in: `id`'s pass `pass` started empty, and every page has items.
    func mayBulkLoad(_ pages: [PageContent], of id: Int64, pass: Int) -> Bool {
        emptyAtPassStart.withLock { $0[id] == pass } && pages.allSatisfy { $0.items != nil }
    }

    /// Writes `pages` as `write_pages` would in a collection that started the pass empty: one
    /// change number a page, the page records and envelopes, then the items by COPY, sent a page
    /// at a time; all in one transaction. `nil` when a key was stored already: nothing is written.
    func bulkLoad(_ pages: [PageContent], of id: Int64, pass: Int, now: Date) async throws -> [PageWrite]? {
        do {
            let writes = try await connection.transaction { transaction in
                let lastNumber = try await transaction.query(recordStatement(pages, of: id, pass: pass, now: now)).first?.decode(Int.self) ?? 0
                let copied = try await transaction.copy(into: "item", columns: ItemCopyRows.columns) { send in
                    for (offset, page) in pages.enumerated() {
                        guard let items = page.items, !items.isEmpty else { continue }
                        var rows = ItemCopyRows(collection: id, pass: pass)
                        rows.append(items, onPage: page.index, changeNumber: lastNumber - pages.count + 1 + offset)
                        try await send(rows.buffer)
                    }
                }
                guard copied else { throw KeyStoredAlready() }
                return pages.map { PageWrite(created: $0.items?.count ?? 0) }
            }
            bulkLoadedPages.withLock { $0 += pages.count }
            return writes
        } catch is KeyStoredAlready {
            return nil
        }
    }

    /// Takes a change number for each page (returning the last), records the pages and keeps
    /// their envelopes, and tells live readers: one statement.
    private func recordStatement(_ pages: [PageContent], of id: Int64, pass: Int, now: Date) -> PostgresQuery {
        """
        WITH numbered AS (
                UPDATE collection SET change_sequence = change_sequence + \(pages.count) WHERE id = \(id) RETURNING change_sequence),
            given AS (SELECT * FROM unnest(\(pages.map(\.index)), \(pages.map(\.url)), \((pages.map(\.nextURL))),
                \(pages.map { $0.items?.count ?? 0 }), \((pages.map(\.validator))), \((pages.map(\.statedTotal))),
                \((pages.map { $0.envelope?.storedText }))) AS g(page_index, url, next_url, item_count, validator, stated_total, envelope)),
            recorded AS (
                INSERT INTO page \(unescaped: PageWriteRule.pageColumns)
                SELECT \(id), page_index, url, next_url, item_count, validator, \(pass), \(pass), \(now.timeIntervalSince1970), stated_total FROM given
                \(unescaped: PageWriteRule.pageConflict)),
            \(unescaped: Self.keepingEnvelopes(of: id))
        SELECT change_sequence, pg_notify('fresh_changes', \(String(id))) FROM numbered
        """
    }
}

/// The copy was refused: a key of the batch is stored already.
private struct KeyStoredAlready: Error {}

/// Items as rows of `item` in COPY's text format: columns split by tabs, rows ended by newlines,
/// `\N` for `NULL`, and a backslash, tab, newline or carriage return in a value escaped.
struct ItemCopyRows {
    static let columns = ["collection_id", "key", "page_index", "position", "json", "exact_text", "pass", "created_sequence",
                          "changed_sequence"]
    private(set) var buffer: [UInt8] = []
    private let collection: Int64
    private let pass: Int

    init(collection: Int64, pass: Int) {
        self.collection = collection
        self.pass = pass
    }

    /// The rows of one page's `items`, at positions from 0, created and changed in `changeNumber`.
    mutating func append(_ items: [(key: ItemKey, json: Data)], onPage page: Int, changeNumber: Int) {
        buffer.reserveCapacity(buffer.count + items.reduce(0) { $0 + $1.json.count + 96 })
        for (position, item) in items.enumerated() {
            let document = ItemDocument(item.json)
            number(collection)
            buffer += Array("\t\\\\x".utf8)
            hex(item.key.tagged)
            buffer.append(UInt8(ascii: "\t"))
            number(page, then: "\t")
            number(position, then: "\t")
            escaped(document.document.bytes)
            buffer.append(UInt8(ascii: "\t"))
            if document.exactText.bytes.isEmpty { buffer += Array("\\N".utf8) } else { escaped(document.exactText.bytes) }
            buffer.append(UInt8(ascii: "\t"))
            number(pass, then: "\t")
            number(changeNumber, then: "\t")
            number(changeNumber, then: "\n")
        }
    }

    /// A number's decimal digits (none here is negative), without a `String` for each.
    private mutating func number(_ value: some BinaryInteger, then separator: Unicode.Scalar? = nil) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { room in  // a UInt64 has at most 20 digits
            var rest = UInt64(value)
            var start = room.count
            repeat {
                start -= 1
                room[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            buffer.append(contentsOf: UnsafeMutableBufferPointer(rebasing: room[start...]))
        }
        if let separator { buffer.append(UInt8(separator.value)) }
    }

    private mutating func hex(_ bytes: Data) {
        for byte in bytes {
            buffer.append(Self.hexDigits[Int(byte >> 4)])
            buffer.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` with COPY's four special bytes escaped: the backslash, tab, newline and carriage
    /// return. An item's JSON has none but the backslash (its text is stored without
    /// insignificant whitespace, and JSON escapes control characters inside strings), so the
    /// backslashes are found by `memchr`, and the byte-by-byte path is only for text that has a
    /// byte below 0x20 (its smallest byte, a loop the compiler vectorizes, says so).
    private mutating func escaped(_ text: Data) {
        text.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            if bytes.reduce(UInt8.max, min) < 0x20 { return escapedByteByByte(bytes) }
            var start = 0
            while start < bytes.count, let found = memchr(base + start, Int32(UInt8(ascii: "\\")), bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(found)) + 1
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                buffer.append(UInt8(ascii: "\\"))  // the backslash written twice
                start = end
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
    }

    private mutating func escapedByteByByte(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): buffer += Array("\\\\".utf8)
            case UInt8(ascii: "\t"): buffer += Array("\\t".utf8)
            case UInt8(ascii: "\n"): buffer += Array("\\n".utf8)
            case UInt8(ascii: "\r"): buffer += Array("\\r".utf8)
            default: buffer.append(byte)
            }
        }
    }
}
