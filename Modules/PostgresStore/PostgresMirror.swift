import Foundation
import MirrorStore
import PostgresNIO

/// The mirror in a PostgreSQL database: the ``MirrorStore`` a team shares, with the SQLite
/// mirror's guarantees kept by the server instead of a file.
///
/// - A batch of pages is written in one transaction with one call (`write_pages`, which calls
///   `write_page` for each; see ``PostgresSchema``): a sync stopped anywhere, or a connection
///   lost, leaves whole pages; nothing half-written is visible to anyone.
/// - One sync of a collection at a time across every machine: an advisory lock
///   (``AdvisoryLock``), released by the server when the holder's connection ends, even by
///   `kill -9` or a lost network.
/// - Readers learn of writes by `LISTEN`/`NOTIFY` (``NotificationWatch``), without polling.
/// - Items are JSONB; the reader's search uses PostgreSQL's full-text search.
///
/// The page records keep each page's validator, so any machine's sync can ask for the page
/// conditionally even when its own HTTP cache has never seen it (see the sync's
/// `PageValidatorStorage`): a collection someone else mirrored costs a second machine 304s.
///
/// One connection serves this process's reads and writes, one at a time; locks and change
/// watches each have their own.
public final class PostgresMirror: MirrorStore {
    public let address: PostgresAddress
    let connection: ServerConnection

    private init(address: PostgresAddress, connection: ServerConnection) {
        self.address = address
        self.connection = connection
    }

    /// Connects, and brings the schema up to date (see ``PostgresSchema``).
    /// - Throws: `StorageError` with one line: the server cannot be reached, the role or the
    ///   database does not exist, the password is wrong, the role may not create the tables.
    public static func open(_ address: PostgresAddress) async throws -> PostgresMirror {
        let connection = try await ServerConnection.open(address)
        do {
            try await PostgresSchema.migrate(connection)
        } catch {
            await connection.close()
            throw error
        }
        return PostgresMirror(address: address, connection: connection)
    }

    /// The address without its password.
    public var location: String { address.description }

    public func lock(collection identity: String, onWait: @escaping @Sendable (String?) -> Void) async throws -> any CollectionLock {
        try await AdvisoryLock.acquire(identity: identity, at: address, onWait: onWait)
    }

    public func watchChanges() async throws -> any ChangeWatch {
        try await NotificationWatch.start(at: address)
    }

    public func close() async { await connection.close() }

    @discardableResult
    /// Runs a write and tells live readers (`NOTIFY`, sent when it commits).
    func write<Value>(_ body: (ServerConnection.Transaction) async throws -> Value) async throws -> Value {
        try await connection.transaction { transaction in
            let value = try await body(transaction)
            try await transaction.query("SELECT pg_notify('fresh_changes', '')")
            return value
        }
    }

    /// The first column of the first row of `query`, decoded as `Value`.
    func value<Value: PostgresDecodable>(_ query: PostgresQuery, as type: Value.Type = Value.self) async throws -> Value? {
        try await connection.query(query).first.map { try $0.decode(Value.self) }
    }
}
