import Foundation
import GRDB
import JSON
import MirrorStore
import PostgresStore
import Storage

/// The two stores every behavioural test runs against.
public enum StoreKind: String, CaseIterable, Sendable {
    case sqlite, postgresql
}

/// Items as a sync hands them to the store: key and compact JSON.
public func items(_ items: [(Int, String)]) -> [(key: ItemKey, json: Data)] {
    items.map { (key: .integer($0.0), json: Data(#"{"id":\#($0.0),"title":"\#($0.1)","extra":{"nested":[1,2]}}"#.utf8)) }
}

/// A store of one kind, empty but for one collection, and page writes in its terms.
public final class StoreUnderTest {
    public let store: any MirrorStore
    public let collection: CollectionRecord
    /// What the store needs to be opened again (another process's view of it).
    public let reopen: @Sendable () async throws -> any MirrorStore
    private let kind: StoreKind
    /// The SQLite store's directory; the PostgreSQL store's database.
    private let directory: String?
    private let database: String?

    public init(_ kind: StoreKind) async throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let directory = NSTemporaryDirectory() + "fresh-store-tests-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            self.directory = directory
            database = nil
            reopen = { try SQLiteMirror(path: directory + "/data.sqlite") }
        case .postgresql:
            let address = try ThrowawayPostgres.shared.get().newDatabase()
            directory = nil
            database = address.database
            reopen = { try await PostgresMirror.open(address) }
        }
        store = try await reopen()
        collection = try await store.createCollection(preferredName: "posts", url: "http://o.test/posts", now: Date())
    }

    deinit {
        let store = store
        Task { await store.close() }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Runs a statement on the store's tables behind its back (another program's write, a bug's
    /// damage), in the store's own names: `sqlite` for a file, `postgresql` in the server.
    public func execute(sqlite: String, postgresql: String) throws {
        switch kind {
        case .sqlite:
            let file = try DatabaseQueue(path: directory! + "/data.sqlite")
            try file.write { try $0.execute(sql: sqlite) }
            try file.close()
        case .postgresql:
            try ThrowawayPostgres.shared.get().sql("SET search_path = fresh; " + postgresql, database: database!)
        }
    }

    @discardableResult
    public func write(_ index: Int, pass: Int, _ contents: [(Int, String)], next: String? = "more") async throws -> PageWrite {
        try await store.writePages([PageContent(index: index, url: "http://o.test/posts?page=\(index + 1)", nextURL: next,
                                                validator: "v\(index)-\(contents.map(\.1).joined())", items: items(contents))],
                                   of: collection.id, pass: pass, now: Date())[0]
    }

    public func write(_ items: [(key: ItemKey, json: String)], page: Int = 0, pass: Int = 1) async throws {
        _ = try await store.writePages([PageContent(index: page, url: "u\(page)", nextURL: nil, validator: nil,
                                                    items: items.map { ($0.key, Data($0.json.utf8)) })],
                                       of: collection.id, pass: pass, now: Date())
    }

    public func unchanged(_ index: Int, pass: Int) async throws {
        _ = try await store.writePages([PageContent(index: index, url: "u", nextURL: nil, validator: nil, items: nil)],
                                       of: collection.id, pass: pass, now: Date())
    }

    public func startPass(restart: Bool = false) async throws -> PassPosition {
        try await store.startPass(of: collection.id, restart: restart, now: Date())
    }

    public func finish(_ pass: Int, lastPage: Int) async throws -> Int {
        try await store.finishPass(pass, of: collection.id, lastPage: lastPage, removingUnlisted: true, recording: .full, now: Date())
    }

    /// A complete first pass of two pages, items 1 and 2 then 3; returns the next pass.
    public func afterAFirstPassOfThreeItems() async throws -> Int {
        let first = try await startPass().pass
        try await write(0, pass: first, [(1, "a"), (2, "b")])
        try await write(1, pass: first, [(3, "c")], next: nil)
        _ = try await finish(first, lastPage: 1)
        return try await startPass().pass
    }

    public func keys(filters: [ItemFilter] = []) async throws -> [ItemKey] {
        var keys: [ItemKey] = []
        try await store.forEachItem(in: collection.id, filters: filters, limit: nil) { keys.append($0.key) }
        return keys
    }

    public func storedItems() async throws -> [StoredItem] {
        var items: [StoredItem] = []
        try await store.forEachItem(in: collection.id) { items.append($0) }
        return items
    }
}

/// Whether two JSON texts hold the same value, whatever the order of their members.
public func sameJSON(_ left: String, _ right: String) throws -> Bool {
    let (a, b) = try (JSONSerialization.jsonObject(with: Data(left.utf8)), JSONSerialization.jsonObject(with: Data(right.utf8)))
    return (a as? NSObject)?.isEqual(b) == true
}
