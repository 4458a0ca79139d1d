import Foundation
import GRDB
import JSON
import MirrorStore
@testable import Storage
import StorageErrors
import Testing

@Suite("Item database: damage, recovery, old versions, read-only")
struct MirrorDamageTests {
    @Test func aFileThatIsNotADatabaseIsReportedAndLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            try SQLiteMirror(path: path)
        } throws: { error in
            guard case StorageError.corrupted = error else { return false }
            return true
        }
        #expect(FileManager.default.contents(atPath: path) == garbage)
    }

    /// Damage in the item table's pages: found by a write, which marks the file, so no later
    /// run writes to it; the check says so; recovery keeps what can be read.
    /// A database of 3,000 items whose item table has a page of zeros in its middle.
    private func damagedDatabase(in directory: TemporaryDirectory) throws -> (path: String, database: SQLiteMirror, collection: CollectionRecord) {
        let path = directory.file("data.sqlite")
        let database = try SQLiteMirror(path: path)
        let collection = try database.createCollection(preferredName: "big", url: "http://o.test/big")
        let items = (1...3000).map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0),"text":"\#(String(repeating: "x", count: 200))"}"#.utf8)) }
        _ = try database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil, items: items)], of: collection.id, pass: 1, now: Date())
        try DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        // Overwrite the page at the middle of the item table's rows with zeros.
        let (page, pageSize) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'item'") ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        let fileSize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(max(page, fileSize / pageSize / 2)) * UInt64(pageSize))
        handle.write(Data(repeating: 0, count: pageSize))
        try handle.close()
        return (path, database, collection)
    }

    enum Scribble: CaseIterable, Sendable {
        /// Pages in the middle of the file, its header left as it was.
        case middlePages
        /// The file's last page.
        case lastPage
    }

    /// A mirror of 3,000 items written and closed cleanly, then damaged by another program
    /// (seeded noise over some of its pages): what a writer opening it must find before it writes.
    private func scribbledDatabase(_ scribble: Scribble, in directory: TemporaryDirectory) async throws -> String {
        let path = directory.file("data.sqlite")
        let database = try SQLiteMirror(path: path)
        let collection = try database.createCollection(preferredName: "big", url: "http://o.test/big")
        let items = (1...3000).map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0),"text":"\#(String(repeating: "x", count: 200))"}"#.utf8)) }
        _ = try database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil, items: items)], of: collection.id, pass: 1)
        await database.close()
        let pageSize = 16 * 1024
        var status = stat()
        var wal = stat()
        #expect(stat(path, &status) == 0 && (stat(path + "-wal", &wal) != 0 || wal.st_size == 0), "closed: everything in the file")
        let pages = Int(status.st_size) / pageSize
        let scribbled = scribble == .middlePages ? (pages / 2 - 1)...(pages / 2 + 1) : (pages - 1)...(pages - 1)
        var random = UInt64(42)
        let noise = (0..<pageSize * scribbled.count).map { _ -> UInt8 in
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: random >> 33)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(scribbled.lowerBound * pageSize))
        handle.write(Data(noise))
        try handle.close()
        return path
    }

    @Test(arguments: Scribble.allCases)
    func damageDoneWhileNoWriterHadTheFileIsFoundBeforeAnythingIsWritten(_ scribble: Scribble) async throws {
        let directory = try TemporaryDirectory()
        let path = try await scribbledDatabase(scribble, in: directory)
        let before = FileManager.default.contents(atPath: path)
        // Opening reads nothing whole (a reader's first frame does not wait for the check): the
        // first write checks the file first.
        let database = try SQLiteMirror(path: path)
        #expect {
            try database.createCollection(preferredName: "new", url: "http://o.test/new")
        } throws: { error in
            // What the check found, on one line (SQLite reports it over several).
            guard case StorageError.corrupted(_, let reason) = error else { return false }
            return !reason.isEmpty && !reason.contains(where: \.isNewline)
        }
        #expect(FileManager.default.contents(atPath: path) == before, "not a byte written")
        #expect(DamageMarker.isMarked(path), "and no later writer tries again")
    }

    @Test func aFileAsItsLastCleanCloseLeftItIsNotReadWholeButAWriterThatRestoresItsTimeIsSeen() async throws {
        // The check costs a read of the whole file, so it runs only when the file changed since a
        // writer closed it sound.
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let database = try SQLiteMirror(path: path)
        _ = try database.createCollection(preferredName: "posts", url: "http://o.test/posts")
        await database.close()
        #expect(!VerifiedState.needsCheck(path))
        _ = try await SQLiteMirror(path: path).close()
        #expect(!VerifiedState.needsCheck(path), "a clean close leaves nothing to check")
        // Noise written with the file's size and modification time put back: the inode's change
        // time, which no program can set, still gives it away.
        var status = stat()
        _ = stat(path, &status)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(status.st_size) - 100)
        handle.write(Data(repeating: 0x5A, count: 100))
        try handle.close()
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(VerifiedState.needsCheck(path))
    }

    @Test func whatACheckFindsIsSaidOnOneLine() {
        let found = ["*** in database main ***\nOn tree page 5 cell 2: invalid page number 9999\nPage 7: never used", "row 3 missing from index i"]
        #expect(MirrorCheck.oneLine(found) == "On tree page 5 cell 2: invalid page number 9999; Page 7: never used; row 3 missing from index i")
        #expect(MirrorCheck.oneLine([]) == "the integrity check failed")
    }

    @Test func damageFoundByACheckKeepsEveryLaterWriterAway() throws {
        let directory = try TemporaryDirectory()
        let (path, _, _) = try damagedDatabase(in: directory)
        #expect(try MirrorCheck.problems(at: path) != ["ok"])
        #expect {
            try SQLiteMirror(path: path)
        } throws: { error in
            guard case StorageError.corrupted = error else { return false }
            return true
        }
    }

    @Test func damageFoundOnceKeepsEveryLaterWriterAwayAndRecoverySavesTheRest() throws {
        let directory = try TemporaryDirectory()
        let (path, database, collection) = try damagedDatabase(in: directory)

        #expect(try MirrorCheck.problems(at: path) != ["ok"])
        #expect(throws: StorageError.self) {
            _ = try database.writePagesNow([PageContent(index: 1, url: "u2", nextURL: nil, validator: nil,
                                                     items: [(.integer(99999), Data(#"{"id":99999}"#.utf8))])], of: collection.id, pass: 1, now: Date())
            try database.forEachItem(in: collection.id) { _ in }
        }
        #expect {
            try SQLiteMirror(path: path)
        } throws: { error in
            guard case StorageError.corrupted(_, let reason) = error else { return false }
            return reason.hasPrefix("found damaged before")
        }
        let recovery = try MirrorCheck.recover(at: path)
        #expect(recovery.collections == 1)
        #expect(recovery.items > 1000 && recovery.items < 3000)
        #expect(FileManager.default.fileExists(atPath: recovery.damagedCopy))
        #expect(try MirrorCheck.problems(at: path) == ["ok"])
        #expect(try SQLiteMirror(path: path).itemCount(in: collection.id) == recovery.items)
        // A recovered file has items and no pages until the next sync: no broken promise either.
        #expect(try SQLiteMirror(path: path).problems().isEmpty)
    }

    /// Bytes changed inside one item's text, its row and the file's structure sound: SQLite's own
    /// check passes, `fresh check` does not, and recovery leaves that item out.
    @Test func anItemWhoseJSONNoLongerParsesIsDamageThatRecoveryLeavesOut() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let database = try SQLiteMirror(path: path)
        let collection = try database.createCollection(preferredName: "posts", url: "http://o.test/posts")
        let items = (1...50).map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0),"title":"t\#($0)"}"#.utf8)) }
        _ = try database.writePagesNow([PageContent(index: 0, url: "u", nextURL: nil, validator: nil, items: items)], of: collection.id, pass: 1, now: Date())
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: #"UPDATE item SET json = '{"id":7,"title":"t' || char(0) || '7' WHERE key = 7"#)
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
        }

        let row = try DatabaseQueue(path: path).read { db in try Int64.fetchOne(db, sql: "SELECT id FROM item WHERE key = 7") } ?? 0
        #expect(try MirrorCheck.problems(at: path) == ["collection posts: 1 item whose JSON no longer parses (the first is row \(row))"])
        #expect(throws: StorageError.self) { try SQLiteMirror(path: path) }
        let recovery = try MirrorCheck.recover(at: path)
        #expect(recovery.items == 49 && recovery.lostRows == 1)
        #expect(try MirrorCheck.problems(at: path) == ["ok"])
    }

    @Test func aVersionTwoDatabaseMigratesItsPostsIntoACollection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1-posts-and-pages'), ('v2-post-sync-run');
                CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL, author TEXT NOT NULL,
                                   updatedAt DOUBLE NOT NULL, resource TEXT NOT NULL DEFAULT '', syncRun TEXT NOT NULL DEFAULT '');
                CREATE TABLE syncedPage (resource TEXT NOT NULL, pageIndex INTEGER NOT NULL, cursor TEXT, nextCursor TEXT NOT NULL,
                                         itemCount INTEGER NOT NULL, syncedAt DOUBLE NOT NULL, PRIMARY KEY (resource, pageIndex));
                INSERT INTO post VALUES (7, '제목', '본문', '민지', 1704067200, 'http://o.test/posts?limit=20', 'run');
                """)
        }
        try old.close()
        let database = try SQLiteMirror(path: path)
        let collection = try #require(try database.collection(named: "posts"))
        #expect(collection.url == "http://o.test/posts?limit=20")
        var items: [StoredItem] = []
        try database.forEachItem(in: collection.id) { items.append($0) }
        #expect(items.map(\.json) == [#"{"author":"민지","body":"본문","id":7,"title":"제목","updated_at":"2024-01-01T00:00:00Z"}"#])
        #expect(try database.problems().isEmpty, "its items have no pages until the next sync, as it promises")
    }

    @Test func aDatabaseFromTheReleaseThatStoredTotalSaysMoreOpensAndSyncs() throws {
        // Stop 19's data.sqlite: its fifth migration, "v5-page-total-says-more", added the
        // statedTotal column and a totalSaysMore one (later derived, no longer stored).
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        let current = try SQLiteMirror(path: path)
        let id = try current.createCollection(preferredName: "c", url: "http://o.test/c").id
        let position = try current.startPass(of: id, restart: false)
        _ = try current.writePagesNow([PageContent(index: 0, url: "http://o.test/c", nextURL: nil, validator: "v",
                                                items: [(key: .integer(1), json: Data(#"{"id":1}"#.utf8))])], of: id, pass: position.pass, now: Date())
        let old = try DatabaseQueue(path: path)
        try old.write { db in
            try db.execute(sql: """
                ALTER TABLE page ADD COLUMN totalSaysMore INTEGER NOT NULL DEFAULT 0;
                UPDATE grdb_migrations SET identifier = 'v5-page-total-says-more' WHERE identifier = 'v5-page-stated-total';
                """)
        }
        try old.close()
        let reopened = try SQLiteMirror(path: path)
        let again = try reopened.startPass(of: id, restart: false)
        _ = try reopened.writePagesNow([PageContent(index: 0, url: "http://o.test/c", nextURL: nil, validator: "w",
                                                 items: [(key: .integer(2), json: Data(#"{"id":2}"#.utf8))])], of: id, pass: again.pass, now: Date())
        #expect(try reopened.pages(of: id, in: 0..<10)[0]?.validator == "w")
    }

    @Test func aReadOnlyOpenerReadsWithoutCreatingAnything() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("data.sqlite")
        #expect(throws: StorageError.self) { try SQLiteMirror(path: path, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: path))
        let writer = try SQLiteMirror(path: path)
        _ = try writer.createCollection(preferredName: "c", url: "http://o.test/c")
        #expect(try SQLiteMirror(path: path, readOnly: true).collections().map(\.name) == ["c"])
    }
}
