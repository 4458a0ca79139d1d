import Foundation
import JSON
import MirrorStore
import NIOCore
import PostgresNIO

// How the mirror's records, keys and conditions are read from and written as PostgreSQL values.

extension ItemKey {
    /// The key as the `bytea` the `key` column holds: `i` and the digits of a number, `s` and
    /// the UTF-8 of a string (any byte, U+0000 included, survives).
    var tagged: ByteBuffer {
        switch self {
        case .integer(let value): ByteBuffer(string: "i\(value)")
        case .string(let value): ByteBuffer(bytes: [UInt8(ascii: "s")] + Array(value.utf8))
        }
    }

    init(tagged buffer: ByteBuffer) {
        let bytes = buffer.readableBytesView
        let body = String(decoding: bytes.dropFirst(), as: UTF8.self)
        if bytes.first == UInt8(ascii: "i"), let value = Int(body) {
            self = .integer(value)
        } else {
            self = .string(body)
        }
    }
}

/// An item's JSON as the `json` (JSONB) and `exact_text` columns take it.
struct ItemDocument {
    /// Text JSONB accepts: the item's, or with each `\u0000` escape made `\ufffd` when it has one.
    var document: String
    /// The item's own text when ``document`` differs from it; empty otherwise.
    var exactText: String

    init(_ json: Data) {
        let text = String(decoding: json, as: UTF8.self)
        if Self.hasNULEscape(json) {
            document = text.replacingOccurrences(of: "\\u0000", with: "\\ufffd")
            exactText = text
        } else {
            document = text
            exactText = ""
        }
    }

    /// Whether the JSON text holds `\u0000`: a byte scan (Foundation's `range(of:)` took 4 % of
    /// a cold sync's time).
    private static func hasNULEscape(_ json: Data) -> Bool {
        json.withUnsafeBytes { bytes in
            guard bytes.count >= 6 else { return false }
            for index in 0...(bytes.count - 6) where bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u")
                && bytes[index + 2] == UInt8(ascii: "0") && bytes[index + 3] == UInt8(ascii: "0") && bytes[index + 4] == UInt8(ascii: "0")
                && bytes[index + 5] == UInt8(ascii: "0") {
                return true
            }
            return false
        }
    }
}

extension CollectionRecord {
    /// The columns a collection is read with, in ``init(row:)``'s order.
    static let columns = """
        id, name, url, plan, created_at, pass, pass_complete, pass_started_at, last_complete_at, last_sync_at,
        last_error, change_sequence, shown_sequence, headers
        """

    init(row: PostgresRow) throws {
        let (id, name, url, plan, createdAt, pass, passComplete, passStartedAt, lastCompleteAt, lastSyncAt, lastError,
             changeSequence, shownSequence, headers) = try row.decode(
            (Int64, String, String, String?, Double, Int, Bool, Double?, Double?, Double?, String?, Int, Int?, String?).self)
        self.init(id: id, name: name, url: url, plan: plan, createdAt: createdAt, pass: pass, passComplete: passComplete,
                  passStartedAt: passStartedAt, lastCompleteAt: lastCompleteAt, lastSyncAt: lastSyncAt, lastError: lastError,
                  changeSequence: changeSequence, shownSequence: shownSequence, headers: headers)
    }
}

extension StoredItem {
    /// The columns an item is read with: its text is the server's when JSONB could not hold it.
    static let columns = "key, coalesce(exact_text, json::text), page_index, position, created_sequence, changed_sequence"

    init(row: PostgresRow) throws {
        let (key, json, pageIndex, position, created, changed) = try row.decode((ByteBuffer, String, Int, Int, Int, Int).self)
        self.init(key: ItemKey(tagged: key), json: JSONText.compact(json), pageIndex: pageIndex, position: position,
                  createdSequence: created, changedSequence: changed)
    }
}

extension ItemRow {
    init(row: PostgresRow) throws {
        let (id, key, pageIndex, position, title, subtitle, created, changed) = try row.decode(
            (Int64, ByteBuffer, Int, Int, String?, String?, Int, Int).self)
        self.init(id: id, key: ItemKey(tagged: key), at: ItemPosition(pageIndex: pageIndex, position: position), title: title,
                  subtitle: subtitle, createdSequence: created, changedSequence: changed)
    }
}

extension JSONPath {
    /// The path as a PostgreSQL `text[]` literal, for `json #> path` (an array index is a
    /// component like any other there).
    var postgresPath: String {
        "ARRAY[" + components.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ") + "]::text[]"
    }
}

extension RowFields {
    /// The SQL expression of the first present member of `paths` as text (`NULL` when none, or
    /// when it is an object or an array), as the SQLite mirror reads it.
    static func postgresExpression(_ paths: [JSONPath]) -> String {
        guard !paths.isEmpty else { return "NULL::text" }
        let parts = paths.map { path in
            "CASE WHEN jsonb_typeof(json #> \(path.postgresPath)) IN ('object', 'array') THEN NULL ELSE json #>> \(path.postgresPath) END"
        }
        return parts.count == 1 ? parts[0] : "coalesce(\(parts.joined(separator: ", ")))"
    }

    /// The select list of a row.
    var postgresSelect: String {
        "SELECT id, key, page_index, position, \(Self.postgresExpression(title)) AS title, "
            + "\(Self.postgresExpression(subtitle)) AS subtitle, created_sequence, changed_sequence FROM item"
    }
}

extension ItemFilter {
    /// The SQL condition, its value bound at `$<argument>`. A member compares as its text, as
    /// on the SQLite side: `5` matches the number 5 and the string "5", `true` the boolean.
    func postgresCondition(argument: Int) -> String {
        let member = "coalesce(json #>> \(path.postgresPath), '')"
        return switch comparison {
        case .equals: "\(member) = $\(argument)"
        case .notEquals: "\(member) != $\(argument)"
        case .contains: "strpos(lower(\(member)), lower($\(argument))) > 0"
        }
    }
}
