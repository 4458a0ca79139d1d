import Foundation
import Logging
import NIOSSL
import PostgresNIO
import StoreAddress

/// One connection to the PostgreSQL server, used by one task at a time: a transaction holds it
/// whole (``AsyncLock``). Every failure comes out as a ``StorageError`` of one line (see
/// ``ServerFailure``), and a transaction that fails is rolled back, so nothing half-written is
/// ever visible to anyone else.
final class ServerConnection: Sendable {
    let address: PostgresAddress
    private let connection: PostgresConnection
    private let turn = AsyncLock()
    /// What waits for an answer, told when the connection closes (see ``answer(_:)``).
    private let waiting = CloseWatch()
    private static let logger = Logger(label: "fresh.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(address: PostgresAddress, connection: PostgresConnection) {
        self.address = address
        self.connection = connection
        connection.closeFuture.whenComplete { [waiting] _ in waiting.close() }
    }

    /// Connects and logs in, with the tables in the `fresh` schema first on the search path
    /// (see ``PostgresSchema``).
    static func open(_ address: PostgresAddress) async throws -> ServerConnection {
        var configuration: PostgresConnection.Configuration
        switch address.endpoint {
        case .socket(let directory, let port):
            configuration = .init(unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: address.user,
                                  password: address.password, database: address.database)
        case .tcp(let host, let port):
            configuration = .init(host: host, port: port, username: address.user, password: address.password,
                                  database: address.database, tls: try tls(address.tlsMode))
        }
        configuration.options.connectTimeout = .seconds(Int64(address.connectTimeout))
        // `synchronous_commit = off`, as the SQLite mirror's `synchronous = NORMAL`: a crash of the
        // server can lose only the last commits (never half of one), which the next sync fetches again.
        configuration.options.additionalStartupParameters = [
            ("search_path", "\(PostgresSchema.name), public"), ("application_name", applicationName), ("synchronous_commit", "off"),
            // The server's JIT compiles a plan it costs high (a pass's end over 100,000 items): 95 ms of
            // compiling for a statement that runs in less. The mirror's statements are all short.
            ("jit", "off"),
        ]
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            return ServerConnection(address: address, connection: connection)
        } catch {
            throw ServerFailure.storageError(error, at: address, connecting: true)
        }
    }

    /// What other sessions see of this one (`pg_stat_activity`), and what a sync that waits
    /// for a collection's lock says it waits for: `fresh: process 1234 on ws-2`.
    static let applicationName = "fresh: process \(getpid()) on \(ProcessInfo.processInfo.hostName)".prefix(63).description

    private static func tls(_ mode: PostgresAddress.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable: return .disable
        case .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: break
        }
        let context = try NIOSSLContext(configuration: tls)
        return mode == .allow || mode == .prefer ? .prefer(context) : .require(context)
    }

    @discardableResult
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await turn.holding { try await run(query) }
    }

    /// Runs one statement, handing its rows to `body` as they arrive (memory stays flat).
    func forEachRow(_ query: PostgresQuery, _ body: (PostgresRow) throws -> Void) async throws {
        try await turn.holding {
            do {
                let rows = try await answer { [connection] in try await connection.query(query, logger: Self.logger) }
                for try await row in rows { try body(row) }
            } catch {
                throw ServerFailure.storageError(error, at: address)
            }
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Value>(_ body: (Transaction) async throws -> Value) async throws -> Value {
        try await turn.holding {
            try await run("BEGIN")
            do {
                let value = try await body(Transaction(connection: self))
                try await run("COMMIT")
                return value
            } catch {
                _ = try? await run("ROLLBACK")
                throw error
            }
        }
    }

    /// The statements of a ``transaction(_:)``.
    struct Transaction {
        fileprivate let connection: ServerConnection

        @discardableResult
        func query(_ query: PostgresQuery) async throws -> [PostgresRow] { try await connection.run(query) }

        /// Runs `COPY table (columns) FROM STDIN`, the rows in COPY's text format, which `send`
        /// sends as `rows` makes them (the server reads the first while the next are made).
        /// Returns false when a row repeats a unique key (SQLSTATE 23505): nothing copied is
        /// then stored, and the transaction must be rolled back.
        func copy(into table: String, columns: [String],
                  rows: @escaping @Sendable (_ send: (ByteBuffer) async throws -> Void) async throws -> Void) async throws -> Bool {
            try await connection.copy(into: table, columns: columns, rows: rows)
        }
    }

    /// Listens on a channel (see ``NotificationWatch``); the sequence ends when the connection does.
    func listen(_ channel: String) async throws -> PostgresNotificationSequence {
        try await answer { [connection] in try await connection.listen(channel) }
    }

    func close() async { try? await connection.close() }

    private func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await answer { [connection] in try await connection.query(query, logger: Self.logger).collect() }
    }

    private func copy(into table: String, columns: [String],
                      rows: @escaping @Sendable (_ send: (ByteBuffer) async throws -> Void) async throws -> Void) async throws -> Bool {
        try await answer { [connection] in
            do {
                try await connection.copyFrom(table: table, columns: columns, logger: Self.logger) { writer in try await rows(writer.write) }
                return true
            } catch let failure as PSQLError where failure.serverInfo?[.sqlState] == "23505" {
                return false
            }
        }
    }

    /// The answer to `request`, or, as soon as the connection closes, the error that says it
    /// was lost: a session the server ended while a statement was on its way could otherwise
    /// leave the statement waiting for good. Its errors are ``StorageError``s.
    private func answer<Value: Sendable>(_ request: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let lost = ServerFailure.closed(at: address)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let reply = SingleReply(continuation)
            guard let ticket = waiting.add({ reply.resume(throwing: lost) }) else { return reply.resume(throwing: lost) }
            Task {
                do { reply.resume(returning: try await request()) } catch {
                    reply.resume(throwing: ServerFailure.storageError(error, at: address))
                }
                waiting.remove(ticket)
            }
        }
    }
}
