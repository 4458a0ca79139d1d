import GRDB
import MirrorStore

// MirrorStore, pages as a replay serves them: what each call does is said on the protocol.
extension SQLiteMirror {
    public func recordedPages(at url: String) throws -> [RecordedPage] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(PageRecord.columns), e.envelope
                FROM page p LEFT JOIN pageEnvelope e ON e.collectionID = p.collectionID AND e.pageIndex = p.pageIndex
                WHERE p.url = ? ORDER BY p.fetchedAt DESC
                """, arguments: [url]).map { row in
                RecordedPage(record: PageRecord(row: row), envelope: (row["envelope"] as String?).flatMap(PageEnvelope.init(storedText:)))
            }
        }
    }

    public func pageURLs(of collectionID: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT url FROM page WHERE collectionID = ? ORDER BY pageIndex", arguments: [collectionID])
        }
    }

    public func itemJSON(onPage index: Int, of collectionID: Int64) throws -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT json FROM item WHERE collectionID = ? AND pageIndex = ? ORDER BY position",
                                arguments: [collectionID, index])
        }
    }

    /// Keeps a written page's envelope beside its record (or forgets an older one when it has none).
    static func keepEnvelope(of page: PageContent, of collectionID: Int64, db: Database) throws {
        if let envelope = page.envelope {
            try NamedParameters.step(db.cachedStatement(sql: """
                INSERT OR REPLACE INTO pageEnvelope (collectionID, pageIndex, envelope) VALUES (:collection, :page, :envelope)
                """), [":collection": .integer(Int(collectionID)), ":page": .integer(page.index), ":envelope": .text(envelope.storedText)], db: db)
        } else {
            try NamedParameters.step(db.cachedStatement(sql: "DELETE FROM pageEnvelope WHERE collectionID = :collection AND pageIndex = :page"),
                                     [":collection": .integer(Int(collectionID)), ":page": .integer(page.index)], db: db)
        }
    }
}
