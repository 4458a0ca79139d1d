import Foundation
import GRDB
import StorageErrors

/// Checks an item database for damage and saves what can still be read into a new file.
///
/// The damaged file is never changed: recovery writes `data.sqlite.recovered`, moves the
/// damaged file aside as `data.sqlite.damaged-<time>` (with its WAL), and puts the recovered
/// one in its place.
public enum MirrorCheck {
    /// What `PRAGMA integrity_check` says, then, in a file it finds sound, the items whose JSON
    /// no longer parses: `["ok"]` for an undamaged file.
    public static func problems(at path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError.cannotOpen(path: path, reason: "no such file")
        }
        return try findProblems(at: path, check: "integrity_check(100)", readingItems: true)
    }

    /// What SQLite's `check` pragma (`integrity_check(N)` or `quick_check(N)`) finds in the file at
    /// `path`, and with `readingItems` the items whose JSON does not parse: `["ok"]` when sound;
    /// damage found marks the file (``DamageMarker``), as elsewhere.
    ///
    /// SQLite's checks see the file's structure, not what its rows hold: bytes changed inside an
    /// item's text (a disk's error, a program writing over the file) leave a sound b-tree around
    /// JSON that no longer parses. Every item is stored as JSON the sync checked, so one that
    /// `json_valid` refuses was damaged where it lies.
    static func findProblems(at path: String, check: String, readingItems: Bool = false) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        // Another process may be creating or migrating the file: wait for it, as its writers do.
        configuration.busyMode = .timeout(DatabaseFile.defaultBusyTimeout)
        var problems: [String]
        do {
            // In a directory that cannot be written, as the readers open it (see readOnlyLocation).
            let queue = try DatabaseQueue(path: DatabaseFile.readOnlyLocation(of: path), configuration: configuration)
            problems = try queue.read { db in
                let found = try String.fetchAll(db, sql: "PRAGMA \(check)")
                guard found == ["ok"], readingItems, try db.tableExists("item") else { return found }
                let unparsable = try Row.fetchAll(db, sql: """
                    SELECT c.name, count(*), min(i.id) FROM item i JOIN collection c ON c.id = i.collectionID
                    WHERE NOT json_valid(i.json) GROUP BY c.name ORDER BY c.name
                    """).map { row -> String in
                        let count: Int = row[1]
                        return "collection \(row[0] as String): \(count) item\(count == 1 ? "" : "s") whose JSON no longer parses (the first is row \(row[2] as Int64))"
                    }
                return unparsable.isEmpty ? found : unparsable
            }
            try queue.close()
        } catch {
            guard StorageError.isDamage(error) else { throw DatabaseFile.classify(error, path: path) }
            problems = [DatabaseFile.message(of: error)]
        }
        if problems == ["ok"] { DamageMarker.clear(path) } else { DamageMarker.mark(path, reason: oneLine(problems)) }
        return problems
    }

    /// The first problems a check found, as one line ("Page 5: btree page has bad flags; …").
    static func oneLine(_ problems: [String]) -> String {
        let lines = problems.flatMap { $0.split(whereSeparator: \.isNewline) }.filter { !$0.hasPrefix("***") }
        return lines.isEmpty ? "the integrity check failed" : lines.prefix(3).joined(separator: "; ")
    }

    /// What a recovery saved and lost.
    public struct Recovery: Sendable, Equatable {
        public var collections = 0
        public var items = 0
        /// Rows that could not be read.
        public var lostRows = 0
        /// Where the damaged file went.
        public var damagedCopy = ""
    }

    /// Copies every readable collection and item into a new database and swaps it in.
    public static func recover(at path: String, now: Date = Date()) throws -> Recovery {
        let target = path + ".recovered"
        for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: target + suffix) }
        var recovery = Recovery()
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let source = try DatabaseQueue(path: path, configuration: configuration)
            let destination = try SQLiteMirror(path: target)
            try destination.writerPool().write { db in
                // No transaction around the reads: a damaged page makes its commit fail too.
                try source.inDatabase { from in
                    recovery.collections = try copyRows(of: "collection", from: from, into: db, lost: &recovery.lostRows)
                    // An item whose JSON no longer parses is lost with the rows that cannot be read.
                    recovery.items = try copyRows(of: "item", keeping: "json_valid(json)", from: from, into: db, lost: &recovery.lostRows)
                }
                // Pages are not copied: the next sync of each collection reads them all again.
                try db.execute(sql: "UPDATE collection SET passComplete = 1")
            }
        } catch {
            throw DatabaseFile.classify(error, path: path)
        }
        let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
        recovery.damagedCopy = "\(path).damaged-\(stamp)"
        for (from, to) in [(path, recovery.damagedCopy), (target, path)] {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: from + suffix) {
                try FileManager.default.moveItem(atPath: from + suffix, toPath: to + suffix)
            }
        }
        try? FileManager.default.removeItem(atPath: target + ".lock")
        DamageMarker.clear(path)
        return recovery
    }

    /// Copies the rows of `table` in rowid order, a batch at a time, or row by row where a batch
    /// cannot be read, counting into `lost` the rows that cannot be and those the SQL condition
    /// `keeping` refuses. Returns the rows copied.
    private static func copyRows(
        of table: String, keeping: String = "1", from source: Database, into destination: Database, lost: inout Int
    ) throws -> Int {
        let columns = try destination.columns(in: table).map(\.name)
        let list = columns.joined(separator: ", ")
        let insert = try destination.makeStatement(
            sql: "INSERT OR IGNORE INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        /// Copies `row` if `keeping` kept it, else counts it into `refused`; returns the rows copied (0 or 1).
        func copy(_ row: Row, refused: inout Int) throws -> Int {
            guard row["kept"] as Bool else {
                refused += 1
                return 0
            }
            try insert.execute(arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
            return 1
        }
        var copied = 0
        var after: Int64 = 0
        while true {
            do {
                let rows = try Row.fetchAll(source, sql: """
                    SELECT rowid AS readRowID, (\(keeping)) AS kept, \(list) FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT 500
                    """, arguments: [after])
                guard let final = rows.last else { return copied }
                // Counted once the whole batch is in: a batch that fails is copied again row by row.
                var refused = 0
                copied += try rows.reduce(0) { try $0 + copy($1, refused: &refused) }
                lost += refused
                after = final["readRowID"]
            } catch {
                // The batch after `after` is unreadable: one rowid at a time, up to the last.
                let last = (try? Int64.fetchOne(source, sql: "SELECT max(rowid) FROM \(table)")) ?? nil
                for probe in (after + 1)...max(after + 1, last ?? after + 100_000) {
                    do {
                        if let row = try Row.fetchOne(source, sql: "SELECT (\(keeping)) AS kept, \(list) FROM \(table) WHERE rowid = ?",
                                                      arguments: [probe]) {
                            copied += try copy(row, refused: &lost)
                        }
                    } catch {
                        lost += 1
                    }
                }
                return copied
            }
        }
    }
}
