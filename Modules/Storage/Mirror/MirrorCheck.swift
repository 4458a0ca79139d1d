import Foundation
import GRDB
import StorageErrors

/// Checks an item database for damage and saves what can still be read into a new file.
///
/// The damaged file is never changed: recovery writes `data.sqlite.recovered`, moves the
/// damaged file aside as `data.sqlite.damaged-<time>` (with its WAL), and puts the recovered
/// one in its place.
public enum MirrorCheck {
    /// What `PRAGMA integrity_check` says: `["ok"]` for an undamaged file.
    public static func problems(at path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StorageError.cannotOpen(path: path, reason: "no such file")
        }
        return try findProblems(at: path, check: "integrity_check(100)")
    }

    /// What SQLite's `check` pragma (`integrity_check(N)` or `quick_check(N)`) finds in the file at
    /// `path`: `["ok"]` when sound; damage found marks the file (``DamageMarker``), as elsewhere.
    static func findProblems(at path: String, check: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        // Another process may be creating or migrating the file: wait for it, as its writers do.
        configuration.busyMode = .timeout(DatabaseFile.defaultBusyTimeout)
        var problems: [String]
        do {
            // In a directory that cannot be written, as the readers open it (see readOnlyLocation).
            let queue = try DatabaseQueue(path: DatabaseFile.readOnlyLocation(of: path), configuration: configuration)
            problems = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA \(check)") }
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
                    recovery.items = try copyRows(of: "item", from: from, into: db, lost: &recovery.lostRows)
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
    /// cannot be read (counting into `lost` the rows that cannot be). Returns the rows copied.
    private static func copyRows(of table: String, from source: Database, into destination: Database, lost: inout Int) throws -> Int {
        let columns = try destination.columns(in: table).map(\.name)
        let list = columns.joined(separator: ", ")
        let insert = try destination.makeStatement(
            sql: "INSERT OR IGNORE INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        func copy(_ row: Row) throws {
            try insert.execute(arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
        }
        var copied = 0
        var after: Int64 = 0
        while true {
            do {
                let rows = try Row.fetchAll(source, sql: "SELECT rowid AS readRowID, \(list) FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT 500",
                                            arguments: [after])
                guard let final = rows.last else { return copied }
                for row in rows { try copy(row) }
                copied += rows.count
                after = final["readRowID"]
            } catch {
                // The batch after `after` is unreadable: one rowid at a time, up to the last.
                let last = (try? Int64.fetchOne(source, sql: "SELECT max(rowid) FROM \(table)")) ?? nil
                for probe in (after + 1)...max(after + 1, last ?? after + 100_000) {
                    do {
                        if let row = try Row.fetchOne(source, sql: "SELECT \(list) FROM \(table) WHERE rowid = ?", arguments: [probe]) {
                            try copy(row)
                            copied += 1
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
