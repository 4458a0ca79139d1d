import Foundation
import GRDB
import JSON
import MirrorStore

// How the mirror's records, keys and conditions are read from and written as SQLite values.

extension CollectionRecord: FetchableRecord {
    public init(row: Row) {
        self.init(id: row["id"], name: row["name"], url: row["url"], plan: StoredText.plan(from: row["plan"]), createdAt: row["createdAt"],
                  pass: row["pass"], passComplete: row["passComplete"], passStartedAt: row["passStartedAt"],
                  lastCompleteAt: row["lastCompleteAt"], lastSyncAt: row["lastSyncAt"], lastError: row["lastError"],
                  changeSequence: row["changeSequence"], shownSequence: row["shownSequence"],
                  headerFields: StoredText.headerFields(from: row["headers"]), since: row["since"],
                  lastPassKind: (row["lastPassKind"] as String?).flatMap(PassKind.init(rawValue:)), incrementalFrom: row["incrementalFrom"])
    }
}
extension PageRecord: FetchableRecord {
    /// The columns a page is selected with from `page p`, in the order ``init(row:)`` reads them.
    static let columns = "p.collectionID, p.pageIndex, p.url, p.nextURL, p.itemCount, p.validator, p.pass, p.contentPass, "
        + "p.fetchedAt, p.statedTotal"

    /// A row selected with ``columns``, read by column number (a warm sync reads every page's
    /// record; decoding by name was a fiftieth of its time).
    public init(row: Row) {
        self.init(collectionID: row[0], pageIndex: row[1], url: row[2], nextURL: row[3], itemCount: row[4], validator: row[5],
                  pass: row[6], contentPass: row[7], fetchedAt: row[8], statedTotal: row[9])
    }
}

extension StoredItem {
    /// The columns an item is selected with, in the order ``init(row:)`` reads them.
    static let columns = "\(ItemKey.column), json, pageIndex, position, createdSequence, changedSequence"

    /// A row selected with ``columns``, read by column number: a read by name case-folds the name
    /// and looks it up, six times an item (a twentieth of a CSV export's time).
    init(row: Row) {
        self.init(key: ItemKey(databaseValue: row[0]), json: row[1], pageIndex: row[2], position: row[3],
                  createdSequence: row[4], changedSequence: row[5])
    }
}

extension ItemFilter {
    /// The SQL condition and its arguments. A member compares as its text: `5` matches the
    /// number 5 and the string "5", `true` matches the boolean, `null` a null; a missing member is empty.
    var sql: (String, [any DatabaseValueConvertible]) {
        let member = "coalesce(CASE json_type(json, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' "
            + "ELSE CAST(json_extract(json, ?) AS TEXT) END, '')"
        let path = self.path.sqlitePath
        switch comparison {
        case .equals: return ("\(member) = ?", [path, path, value])
        case .notEquals: return ("\(member) != ?", [path, path, value])
        case .contains: return ("instr(lower(\(member)), lower(?)) > 0", [path, path, value])
        }
    }
}

extension RowFields {
    /// The SQL expression of the first present member of `paths` as text (`NULL` when none).
    static func expression(_ paths: [JSONPath]) -> String {
        guard !paths.isEmpty else { return "NULL" }
        let parts = paths.map { path in
            let quoted = path.sqlitePath.replacingOccurrences(of: "'", with: "''")
            return "CASE json_type(json, '\(quoted)') WHEN 'object' THEN NULL WHEN 'array' THEN NULL "
                + "ELSE CAST(json_extract(json, '\(quoted)') AS TEXT) END"
        }
        return parts.count == 1 ? parts[0] : "coalesce(\(parts.joined(separator: ", ")))"
    }
}

extension ItemRow {
    /// A row of ``SQLiteMirror/rowSelect(_:)``, read by column number in that select's order: a read
    /// by name looks the name up among the columns, case-folded, each time, which was a twentieth of
    /// the reader's time a screen.
    ///
    /// SQLite's `json_extract` ends a string at a `\u0000` in it (3.40), and a server could hide
    /// the rest of a title that way: the select gives such an item's JSON too, and its title and
    /// subtitle are read from it here.
    init(row: Row, fields: RowFields) {
        self.init(id: row[0], key: ItemKey(databaseValue: row[1]), at: ItemPosition(pageIndex: row[2], position: row[3]),
                  title: row[6], subtitle: row[7], createdSequence: row[4], changedSequence: row[5])
        guard let json: String = row[8], let document = try? JSONDocument(Data(json.utf8)) else { return }
        title = Self.string(at: fields.title, in: document) ?? title
        subtitle = Self.string(at: fields.subtitle, in: document) ?? subtitle
    }

    /// The string the first of `paths` the document has a value for holds (as ``RowFields``
    /// chooses: not an object, an array or null), `nil` when that value is no string.
    private static func string(at paths: [JSONPath], in document: JSONDocument) -> String? {
        let chosen = paths.lazy.compactMap { document.value(at: $0) }.first { ![.object, .array, .null].contains($0.kind) }
        return chosen?.kind == .string ? chosen?.string : nil
    }
}

extension ItemKey {
    /// The `key` column as a result column that keeps every byte of a text key: read as
    /// text, a key holding U+0000 would end there (GRDB reads text as a C string).
    static let column = "iif(typeof(key) = 'text', CAST(key AS BLOB), key) AS key"

    /// The key as SQLite stored it (a text key read through ``column`` comes as its bytes).
    init(databaseValue: DatabaseValue) {
        switch databaseValue.storage {
        case .int64(let value): self = .integer(Int(value))
        case .string(let value): self = .string(value)
        case .double(let value): self = .string(String(value))
        case .blob(let data): self = .string(String(decoding: data, as: UTF8.self))
        case .null: self = .string("")
        }
    }

    /// The key as SQLite stores it: an integer or a text value (never converted into each other).
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let value): value.databaseValue
        case .string(let value): value.databaseValue
        }
    }
}

/// SQL written once for both stores (``PageWriteRule``, ``BrokenPromise``) names the PostgreSQL
/// store's columns; this store's are the same in camel case.
enum MirrorSQL {
    /// `statement` under this store's names (`next_url` is `nextURL`, `item_count` is `itemCount`);
    /// the parameters keep their `:name`, which SQLite takes as it is.
    static func underSQLiteNames(_ statement: String) -> String {
        // Simple word boundaries: under Unicode's, `excluded.page_index` would be one word.
        statement.replacing(/:?\b[a-z]+(?:_[a-z]+)+\b/.wordBoundaryKind(.simple)) { match in
            let name = match.output
            guard !name.hasPrefix(":") else { return String(name) }
            let words = name.split(separator: "_")
            return words[0] + words.dropFirst().map { $0 == "url" || $0 == "id" ? $0.uppercased() : $0.capitalized }.joined()
        }
    }
}
