import GRDB
import MirrorStore

// MirrorStore, health: what `fresh check` asks of an SQLite mirror.
extension SQLiteMirror {
    /// The file's soundness first (``MirrorCheck/problems(at:)``); in a sound file, what the mirror
    /// promises (``brokenPromises()``).
    public func problems() throws -> [String] {
        let found = try MirrorCheck.problems(at: path)
        return found == ["ok"] ? try brokenPromises() : found
    }

    /// What the mirror promises and does not hold (``BrokenPromise``), as the PostgreSQL store
    /// checks it. Each of the three reads the order index once (items are
    /// grouped by page before their page is looked up, 37 ms at 100,000 items, not a lookup each).
    public func brokenPromises() throws -> [String] {
        try read { db in
            var found: [String] = []
            for row in try Row.fetchAll(db, sql: """
                SELECT c.name, sum(onPage.count) FROM (
                    SELECT collectionID, pageIndex, count(*) AS count FROM item WHERE pageIndex >= 0 GROUP BY collectionID, pageIndex
                ) onPage JOIN collection c ON c.id = onPage.collectionID
                WHERE c.passComplete AND NOT EXISTS (
                    SELECT 1 FROM page p WHERE p.collectionID = onPage.collectionID AND p.pageIndex = onPage.pageIndex)
                AND onPage.pageIndex < (SELECT max(p.pageIndex) FROM page p WHERE p.collectionID = onPage.collectionID)
                GROUP BY c.name ORDER BY c.name
                """) {
                found.append(BrokenPromise.itemsOnNoPage(collection: row[0], count: row[1]))
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT c.name, p.pageIndex FROM page p JOIN collection c ON c.id = p.collectionID
                WHERE c.passComplete AND p.pass = c.pass AND p.contentPass = p.pass AND p.itemCount > (
                    SELECT count(*) FROM item i WHERE i.collectionID = p.collectionID AND i.pageIndex = p.pageIndex)
                ORDER BY c.name, p.pageIndex LIMIT 10
                """) {
                found.append(BrokenPromise.shortPage(collection: row[0], pageIndex: row[1]))
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT name, kept, stored FROM (
                    SELECT c.name, k.count AS kept,
                        (SELECT count(*) FROM item i WHERE i.collectionID = c.id AND i.pageIndex >= 0) AS stored
                    FROM itemCount k JOIN collection c ON c.id = k.collectionID AND k.changeSequence = c.changeSequence)
                WHERE kept != stored ORDER BY name
                """) {
                found.append(BrokenPromise.keptCount(collection: row[0], kept: row[1], stored: row[2]))
            }
            return found
        }
    }
}

