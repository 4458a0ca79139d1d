import Foundation
import GRDB
import HTTPTypes
import MirrorStore
import Pagination
import StorageErrors

// MirrorStore, collections: what each call does is said on the protocol.
extension SQLiteMirror {
    // MARK: Finding collections

    public func collections() throws -> [CollectionRecord] {
        try read { db in try CollectionRecord.fetchAll(db, sql: "SELECT * FROM collection ORDER BY name") }
    }

    public func collection(named name: String) throws -> CollectionRecord? {
        try read { db in try CollectionRecord.fetchOne(db, sql: "SELECT * FROM collection WHERE name = ?", arguments: [name]) }
    }

    public func collection(id: Int64) throws -> CollectionRecord? {
        try read { db in try CollectionRecord.fetchOne(db, sql: "SELECT * FROM collection WHERE id = ?", arguments: [id]) }
    }

    public func summaries() throws -> [CollectionSummary] {
        try read { db in
            try CollectionRecord.fetchAll(db, sql: "SELECT * FROM collection ORDER BY name").map { collection in
                let row = try Row.fetchOne(db, sql: """
                    SELECT count(*) AS items, coalesce(sum(length(json)), 0) AS bytes
                    FROM item WHERE collectionID = ? AND pageIndex >= 0
                    """, arguments: [collection.id])
                let pages = try Int.fetchOne(db, sql: "SELECT count(*) FROM page WHERE collectionID = ?", arguments: [collection.id]) ?? 0
                return CollectionSummary(collection: collection, itemCount: row?["items"] ?? 0, pageCount: pages, bytes: row?["bytes"] ?? 0)
            }
        }
    }

    // MARK: Changing collections

    public func createCollection(preferredName name: String, url: String, now: Date = Date()) throws -> CollectionRecord {
        try write { db in
            var candidate = name
            var suffix = 1
            while try Bool.fetchOne(db, sql: "SELECT 1 FROM collection WHERE name = ?", arguments: [candidate]) == true {
                suffix += 1
                candidate = "\(name)-\(suffix)"
            }
            try db.execute(sql: "INSERT INTO collection (name, url, createdAt) VALUES (?, ?, ?)",
                           arguments: [candidate, url, now.timeIntervalSince1970])
            return try CollectionRecord.fetchOne(db, sql: "SELECT * FROM collection WHERE id = ?", arguments: [db.lastInsertedRowID])!
        }
    }

    public func setPlan(_ plan: PaginationPlan, url: String, of collectionID: Int64) throws {
        try execute("UPDATE collection SET plan = ?, url = ? WHERE id = ?", [StoredText.text(of: plan), url, collectionID])
    }

    public func rememberHeaders(_ fields: HTTPFields, of collectionID: Int64) throws {
        try execute("UPDATE collection SET headers = ? WHERE id = ?", [StoredText.text(of: fields), collectionID])
    }

    public func resetPlan(of collectionID: Int64) throws {
        try write { db in
            try db.execute(sql: "UPDATE collection SET plan = NULL, passComplete = 1 WHERE id = ?", arguments: [collectionID])
            try db.execute(sql: "DELETE FROM page WHERE collectionID = ?", arguments: [collectionID])
        }
    }

    /// On the page writer's thread: the write may wait for another process's, and a reader calls
    /// this from a task, whose thread must not block.
    public func markShown(_ collectionID: Int64, upTo sequence: Int) async throws {
        try await onWriterThread { [self] in try execute("UPDATE collection SET shownSequence = ? WHERE id = ?", [sequence, collectionID]) }
    }

    @discardableResult
    public func deleteCollection(_ collectionID: Int64) throws -> Int {
        try write { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE collectionID = ?", arguments: [collectionID]) ?? 0
            try db.execute(sql: "DELETE FROM item WHERE collectionID = ?", arguments: [collectionID])
            try db.execute(sql: "DELETE FROM page WHERE collectionID = ?", arguments: [collectionID])
            try db.execute(sql: "DELETE FROM itemText WHERE collectionID = ?", arguments: [collectionID])
            try db.execute(sql: "DELETE FROM itemCount WHERE collectionID = ?", arguments: [collectionID])
            try db.execute(sql: "DELETE FROM collection WHERE id = ?", arguments: [collectionID])
            return count
        }
    }

    public func recordSyncEnd(of collectionID: Int64, error: String?, at date: Date = Date()) throws {
        try execute("UPDATE collection SET lastSyncAt = ?, lastError = ? WHERE id = ?",
                    [date.timeIntervalSince1970, error, collectionID])
    }

    public func rememberSince(_ since: String?, of collectionID: Int64) throws {
        try execute("UPDATE collection SET since = ?, incrementalFrom = NULL WHERE id = ?", [since, collectionID])
    }

    public func recordIncrementalStart(_ value: String, of collectionID: Int64) throws {
        try execute("UPDATE collection SET incrementalFrom = ? WHERE id = ?", [value, collectionID])
    }

    public func recordPassKind(_ kind: PassKind, of collectionID: Int64) throws {
        try execute("UPDATE collection SET lastPassKind = ?, incrementalFrom = CASE WHEN ? = 'incremental' THEN NULL ELSE incrementalFrom END WHERE id = ?",
                    [kind.rawValue, kind.rawValue, collectionID])
    }

    public func renameCollection(_ collectionID: Int64, to name: String) throws {
        try write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM collection WHERE name = ? AND id != ?", arguments: [name, collectionID]) == true {
                throw StorageError.failed("a collection called '\(name)' exists already")
            }
            try db.execute(sql: "UPDATE collection SET name = ? WHERE id = ?", arguments: [name, collectionID])
        }
    }
}
