import DedicatedThreads
import Foundation
import StoreAddress

/// One connection to the PostgreSQL server (libpq's, on a thread of its own, as every libpq call
/// blocks), used by one task at a time: a transaction holds it whole (``AsyncLock``). Every
/// failure comes out as a ``StorageError`` of one line (see ``ServerFailure``), and a transaction
/// that fails is rolled back, so nothing half-written is ever visible to anyone else.
final class ServerConnection: Sendable {
    let address: PostgresAddress
    private let link: LibpqConnection
    private let thread: JobThread
    private let turn = AsyncLock()

    private init(address: PostgresAddress, link: LibpqConnection, thread: JobThread) {
        self.address = address
        self.link = link
        self.thread = thread
    }

    /// Connects and logs in, with the tables in the `fresh` schema first on the search path
    /// (see ``PostgresSchema``).
    static func open(_ address: PostgresAddress) async throws -> ServerConnection {
        let thread = JobThread(name: "fresh.postgres")
        do {
            let link = try await run(on: thread) { try LibpqConnection.connect(parameters(of: address)) }
            return ServerConnection(address: address, link: link, thread: thread)
        } catch {
            thread.stop()
            throw ServerFailure.storageError(error, at: address, connecting: true)
        }
    }

    /// The address as libpq's connection keywords. What the address leaves to libpq's own
    /// defaults (client certificates, `PGSSLROOTCERT`, …) libpq reads as it always does.
    static func parameters(of address: PostgresAddress) -> [(keyword: String, value: String)] {
        var parameters: [(keyword: String, value: String)] = [
            ("user", address.user), ("dbname", address.database), ("connect_timeout", String(address.connectTimeout)),
            ("application_name", applicationName), ("client_encoding", "UTF8"),
            // `synchronous_commit = off`, as the SQLite mirror's `synchronous = NORMAL`: a crash of the
            // server can lose only the last commits (never half of one), which the next sync fetches again.
            // The server's JIT compiles a plan it costs high (a pass's end over 100,000 items): 95 ms of
            // compiling for a statement that runs in less. The mirror's statements are all short.
            ("options", "-c search_path=\(PostgresSchema.name),public -c synchronous_commit=off -c jit=off"),
        ]
        switch address.endpoint {
        case .socket(let directory, let port):
            parameters += [("host", directory), ("port", String(port))]
        case .tcp(let host, let port):
            parameters += [("host", host), ("port", String(port)), ("sslmode", address.tlsMode.rawValue)]
            if let authorities = authorities(for: address) { parameters.append(("sslrootcert", authorities)) }
        }
        if let password = address.password { parameters.append(("password", password)) }
        return parameters
    }

    /// The authorities that verify the server's certificate: the address's (`sslrootcert`), else
    /// `~/.postgresql/root.crt` (libpq's default, so `nil`), else the system's, which libpq 15
    /// does not read by itself.
    private static func authorities(for address: PostgresAddress) -> String? {
        if let given = address.tlsAuthorities { return given }
        guard address.tlsMode == .verifyCA || address.tlsMode == .verifyFull else { return nil }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return FileManager.default.fileExists(atPath: "\(home)/.postgresql/root.crt") ? nil : "/etc/ssl/certs/ca-certificates.crt"
    }

    /// What other sessions see of this one (`pg_stat_activity`), and what a sync that waits
    /// for a collection's lock says it waits for: `fresh: process 1234 on ws-2`.
    static let applicationName = "fresh: process \(getpid()) on \(ProcessInfo.processInfo.hostName)".prefix(63).description

    @discardableResult
    func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await turn.holding { try await run(query) }
    }

    /// Runs one statement, handing its rows to `body` as they arrive, a batch at a time (memory
    /// stays flat). When `body` throws, the statement is cancelled.
    func forEachRow(_ query: PostgresQuery, _ body: (PostgresRow) throws -> Void) async throws {
        try await turn.holding { try await streamRows(query, body) }
    }

    /// Rows handed from the connection's thread at a time by ``forEachRow(_:_:)``.
    private static let rowBatch = 500

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

        /// Runs one statement, handing its rows to `body` as they arrive (as ``ServerConnection/forEachRow(_:_:)``).
        func forEachRow(_ query: PostgresQuery, _ body: (PostgresRow) throws -> Void) async throws {
            try await connection.streamRows(query, body)
        }

        /// Runs `COPY table (columns) FROM STDIN`, the rows in COPY's text format, which `send`
        /// sends as `rows` makes them (the server reads the first while the next are made).
        /// Returns false when a row repeats a unique key (SQLSTATE 23505): nothing copied is
        /// then stored, and the transaction must be rolled back.
        func copy(into table: String, columns: [String], rows: (_ send: ([UInt8]) async throws -> Void) async throws -> Void) async throws -> Bool {
            try await connection.copy(into: table, columns: columns, rows: rows)
        }
    }

    /// Ends the connection (a session's advisory locks with it) and its thread.
    func close() async {
        _ = try? await Self.run(on: thread) { [link] in link.finish() }
        thread.stop()
    }

    deinit { thread.stop() }

    private func streamRows(_ query: PostgresQuery, _ body: (PostgresRow) throws -> Void) async throws {
        try await onThread { try $0.startRows(query) }
        while let rows = try await onThread({ try $0.nextRows(upTo: Self.rowBatch) }) {
            do {
                for row in rows { try body(row) }
            } catch {
                _ = try? await onThread { $0.abandonRows() }
                throw error
            }
        }
    }

    private func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await onThread { try $0.execute(query) }
    }

    private func copy(into table: String, columns: [String], rows: (_ send: ([UInt8]) async throws -> Void) async throws -> Void) async throws -> Bool {
        try await onThread { try $0.startCopy("COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN") }
        do {
            try await rows { bytes in try await self.onThread { try $0.sendCopyData(bytes) } }
        } catch {
            _ = try? await onThread { try $0.endCopy(abandoning: "the rows could not be made") }
            throw error
        }
        do {
            try await Self.run(on: thread) { [link] in try link.endCopy() }
            return true
        } catch let failure as PostgresFailure where failure.sqlState == "23505" {
            return false
        } catch {
            throw ServerFailure.storageError(error, at: address)
        }
    }

    /// Runs `body` with the connection on its thread; its errors are ``StorageError``s.
    private func onThread<Value: Sendable>(_ body: @escaping @Sendable (LibpqConnection) throws -> Value) async throws -> Value {
        do {
            return try await Self.run(on: thread) { [link] in try body(link) }
        } catch {
            throw ServerFailure.storageError(error, at: address)
        }
    }

    /// Runs `body` on `thread` and returns what it returned or threw; a stopped thread is a closed connection.
    static func run<Value: Sendable>(on thread: JobThread, _ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            if !thread.submit({ continuation.resume(with: Result { try body() }) }) {
                continuation.resume(throwing: PostgresFailure(lost: nil))
            }
        }
    }
}
