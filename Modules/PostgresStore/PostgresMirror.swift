import MirrorStore
import StoreAddress
import Synchronization

/// The mirror in a PostgreSQL database: the ``MirrorStore`` a team shares, with the SQLite
/// mirror's guarantees kept by the server instead of a file: batches of pages in one transaction
/// (``PostgresSchema``), one sync of a collection at a time (``AdvisoryLock``), readers told of
/// writes (``NotificationWatch``), items as JSONB (docs/scaling.md, "The guarantees, and how the
/// server keeps them"). Page records keep their validators, so a second machine pays 304s (the
/// sync's `PageValidatorStorage`).
///
/// One connection serves this process's reads and writes, one at a time; locks and change
/// watches each have their own.
public final class PostgresMirror: MirrorStore {
    public let address: PostgresAddress
    let connection: ServerConnection
    /// The collections whose pass started empty, each with that pass: its pages are copied in
    /// (``bulkLoad(_:of:pass:now:)``).
    let emptyAtPassStart = Mutex<[Int64: Int]>([:])
    /// How many pages ``bulkLoad(_:of:pass:now:)`` has copied in (for the tests).
    let bulkLoadedPages = Mutex(0)

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

    public func watchChanges() async throws -> any ChangeWatch { try await NotificationWatch.start(at: address) }

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
