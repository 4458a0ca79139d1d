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

    /// What the mirror promises and does not hold: ``BrokenPromise``'s queries under this store's
    /// names. Each reads the order index once (37 ms at 100,000 items).
    public func brokenPromises() throws -> [String] {
        try read { db in
            let orphans = try Row.fetchAll(db, sql: MirrorSQL.underSQLiteNames(BrokenPromise.itemsOnNoPageQuery)).map {
                BrokenPromise.itemsOnNoPage(collection: $0[0], count: $0[1])
            }
            let short = try Row.fetchAll(db, sql: MirrorSQL.underSQLiteNames(BrokenPromise.shortPagesQuery)).map {
                BrokenPromise.shortPage(collection: $0[0], pageIndex: $0[1])
            }
            let miscounted = try Row.fetchAll(db, sql: MirrorSQL.underSQLiteNames(BrokenPromise.keptCountQuery)).map {
                BrokenPromise.keptCount(collection: $0[0], kept: $0[1], stored: $0[2])
            }
            return orphans + short + miscounted
        }
    }
}
