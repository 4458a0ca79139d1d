import Foundation
import JSON
import MirrorStore

// How the mirror's records, keys and conditions are read from and written as PostgreSQL values.

extension ItemKey {
    /// The key as the `bytea` the `key` column holds: `i` and the digits of a number, `s` and
    /// the UTF-8 of a string (any byte, U+0000 included, survives).
    var tagged: Data {
        switch self {
        case .integer(let value): Data("i\(value)".utf8)
        case .string(let value): Data([UInt8(ascii: "s")] + Array(value.utf8))
        }
    }

    init(tagged bytes: Data) {
        let body = String(decoding: bytes.dropFirst(), as: UTF8.self)
        if bytes.first == UInt8(ascii: "i"), let value = Int(body) {
            self = .integer(value)
        } else {
            self = .string(body)
        }
    }
}

/// An item's JSON as the `json` (JSONB) and `exact_text` columns take it, as UTF-8 bytes: the
/// sync's JSON reader has checked them, so no Swift `String` is made per item (docs/scaling.md).
struct ItemDocument {
    /// Text JSONB accepts: the item's, or with each `\u0000` escape made `\ufffd` when it has one.
    var document: UTF8Text
    /// The item's own text when ``document`` differs from it; empty otherwise.
    var exactText: UTF8Text

    init(_ json: Data) {
        if Self.hasNULEscape(json) {
            let text = String(decoding: json, as: UTF8.self)
            document = UTF8Text(bytes: Data(text.replacingOccurrences(of: "\\u0000", with: "\\ufffd").utf8))
            exactText = UTF8Text(bytes: json)
        } else {
            document = UTF8Text(bytes: json)
            exactText = UTF8Text(bytes: Data())
        }
    }

    /// Whether the JSON text holds `\u0000`, which JSONB refuses: `memchr` from backslash to backslash.
    private static func hasNULEscape(_ json: Data) -> Bool {
        json.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            var offset = 0
            while bytes.count - offset >= nulEscape.count,
                  let found = memchr(base + offset, Int32(nulEscape[0]), bytes.count - offset - nulEscape.count + 1) {
                if memcmp(found, nulEscape, nulEscape.count) == 0 { return true }
                offset = base.distance(to: UnsafeRawPointer(found)) + 1
            }
            return false
        }
    }

    private static let nulEscape = Array(#"\u0000"#.utf8)
}

/// UTF-8 bytes sent as a `text` value (elements of a `text[]` parameter), without a `String`.
/// Only for bytes known to be valid UTF-8: the server refuses anything else.
struct UTF8Text: PostgresArrayElement {
    var bytes: Data

    static var postgresType: UInt32 { PostgresType.text }
    static var postgresArrayType: UInt32 { PostgresType.textArray }
    var postgresValue: [UInt8]? { Array(bytes) }
}

extension CollectionRecord {
    /// The columns a collection is read with, in ``init(row:)``'s order.
    static let columns = """
        id, name, url, plan, created_at, pass, pass_complete, pass_started_at, last_complete_at, last_sync_at,
        last_error, change_sequence, shown_sequence, headers, since, last_pass_kind, incremental_from
        """

    init(row: PostgresRow) throws {
        let (id, name, url, plan, createdAt, pass, passComplete, passStartedAt, lastCompleteAt, lastSyncAt, lastError,
             changeSequence, shownSequence, headers, since, lastPassKind, incrementalFrom) = try row.decode(
            (Int64, String, String, String?, Double, Int, Bool, Double?, Double?, Double?, String?, Int, Int?, String?, String?, String?,
             String?).self)
        self.init(id: id, name: name, url: url, plan: StoredText.plan(from: plan), createdAt: createdAt, pass: pass, passComplete: passComplete,
                  passStartedAt: passStartedAt, lastCompleteAt: lastCompleteAt, lastSyncAt: lastSyncAt, lastError: lastError,
                  changeSequence: changeSequence, shownSequence: shownSequence, headerFields: StoredText.headerFields(from: headers),
                  since: since, lastPassKind: lastPassKind.flatMap(PassKind.init(rawValue:)), incrementalFrom: incrementalFrom)
    }
}

extension StoredItem {
    /// The columns an item is read with: its text is the server's when JSONB could not hold it.
    static let columns = "key, coalesce(exact_text, json::text), page_index, position, created_sequence, changed_sequence"

    init(row: PostgresRow) throws {
        let (key, json, pageIndex, position, created, changed) = try row.decode((Data, String, Int, Int, Int, Int).self)
        self.init(key: ItemKey(tagged: key), json: JSONText.compact(json), pageIndex: pageIndex, position: position,
                  createdSequence: created, changedSequence: changed)
    }
}

extension ItemRow {
    init(row: PostgresRow) throws {
        let (id, key, pageIndex, position, title, subtitle, created, changed) = try row.decode(
            (Int64, Data, Int, Int, String?, String?, Int, Int).self)
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

    var postgresSelect: String {
        "SELECT id, key, page_index, position, \(Self.postgresExpression(title)) AS title, "
            + "\(Self.postgresExpression(subtitle)) AS subtitle, created_sequence, changed_sequence FROM item"
    }
}

extension ItemFilter {
    /// The SQL condition, its value bound at `$<argument>`; a member compares as its text, as on the SQLite side.
    func postgresCondition(argument: Int) -> String {
        let member = "coalesce(CASE jsonb_typeof(json #> \(path.postgresPath)) WHEN 'null' THEN 'null' ELSE json #>> \(path.postgresPath) END, '')"
        return switch comparison {
        case .equals: "\(member) = $\(argument)"
        case .notEquals: "\(member) != $\(argument)"
        case .contains: "strpos(lower(\(member)), lower($\(argument))) > 0"
        }
    }
}
