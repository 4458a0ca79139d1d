import CLibpq
import Foundation

/// One libpq connection (`PGconn`), whose every call blocks: used only on its own thread (see
/// ``ServerConnection``), one call at a time. Answers come in PostgreSQL's text format;
/// parameters go in its binary format (see ``PostgresBindings``).
final class LibpqConnection: @unchecked Sendable {
    private var connection: OpaquePointer?

    private init(_ connection: OpaquePointer) { self.connection = connection }

    /// Connects with libpq's keywords and values (`host`, `port`, `dbname`, `sslmode`, …).
    static func connect(_ parameters: [(keyword: String, value: String)]) throws(PostgresFailure) -> LibpqConnection {
        let keywords = parameters.map { strdup($0.keyword) } + [nil]
        let values = parameters.map { strdup($0.value) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywords in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
                PQconnectdbParams(keywords.baseAddress, values.baseAddress, 0)
            }
        }
        guard let connection else { throw PostgresFailure(connecting: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresFailure(connecting: message)
        }
        // The server's notices (`DROP FUNCTION IF EXISTS` of a migration: "… does not exist,
        // skipping") are not the user's business; libpq would print them on stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        return LibpqConnection(connection)
    }

    /// Runs one statement and returns its rows.
    func execute(_ query: PostgresQuery) throws(PostgresFailure) -> [PostgresRow] {
        let connection = try open()
        let result = Self.withParameters(query.binds) { count, types, values, lengths, formats in
            PQexecParams(connection, query.sql, count, types, values, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result)
        return (0..<PQntuples(result)).map { Self.row($0, of: result) }
    }

    // MARK: Rows a few at a time

    /// Sends a statement whose rows ``nextRows(upTo:)`` then reads as they come (libpq's
    /// single-row mode: however many there are, only a batch is held).
    func startRows(_ query: PostgresQuery) throws(PostgresFailure) {
        let connection = try open()
        let sent = Self.withParameters(query.binds) { count, types, values, lengths, formats in
            PQsendQueryParams(connection, query.sql, count, types, values, lengths, formats, 0)
        }
        guard sent == 1 else { throw failure() }
        PQsetSingleRowMode(connection)
    }

    /// Up to `limit` more rows of the statement ``startRows(_:)`` sent; `nil` once all have come.
    func nextRows(upTo limit: Int) throws(PostgresFailure) -> [PostgresRow]? {
        let connection = try open()
        var rows: [PostgresRow] = []
        while rows.count < limit {
            guard let result = PQgetResult(connection) else { return rows.isEmpty ? nil : rows }
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_SINGLE_TUPLE: rows.append(Self.row(0, of: result))
            case PGRES_TUPLES_OK: continue  // the end; the next result is none
            default:
                let failure = failure(of: result)
                drainResults()
                throw failure
            }
        }
        return rows
    }

    /// Stops a statement whose rows are no longer wanted: asks the server to cancel it, then
    /// reads what it still sends, so the connection can take the next statement.
    func abandonRows() {
        guard let connection else { return }
        if let cancel = PQgetCancel(connection) {
            var reason = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &reason, Int32(reason.count))
            PQfreeCancel(cancel)
        }
        drainResults()
    }

    // MARK: COPY … FROM STDIN

    /// Starts `COPY … FROM STDIN`; ``sendCopyData(_:)`` sends rows, ``endCopy(abandoning:)`` ends it.
    func startCopy(_ statement: String) throws(PostgresFailure) {
        let connection = try open()
        let result = PQexec(connection, statement)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COPY_IN else { throw failure(of: result) }
    }

    func sendCopyData(_ bytes: [UInt8]) throws(PostgresFailure) {
        let connection = try open()
        guard PQputCopyData(connection, bytes, Int32(bytes.count)) == 1 else { throw failure() }
    }

    /// Ends the copy: the server stores the rows, or, with a `reason`, refuses them all.
    func endCopy(abandoning reason: String? = nil) throws(PostgresFailure) {
        let connection = try open()
        guard PQputCopyEnd(connection, reason) == 1 else { throw failure() }
        var firstFailure: PostgresFailure?
        while let result = PQgetResult(connection) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, firstFailure == nil { firstFailure = failure(of: result) }
            PQclear(result)
        }
        if let firstFailure { throw firstFailure }
    }

    // MARK: Notifications

    /// Waits until the server sends a notification (true) or `wake` becomes readable (false).
    /// - Throws: ``PostgresFailure`` when the connection is lost.
    func waitForNotification(orReadable wake: Int32) throws(PostgresFailure) -> Bool {
        let connection = try open()
        while true {
            if let notification = PQnotifies(connection) {
                PQfreemem(notification)
                while let more = PQnotifies(connection) { PQfreemem(more) }
                return true
            }
            var waits = [pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            guard poll(&waits, 2, -1) >= 0 || errno == EINTR else { throw PostgresFailure(lost: String(cString: strerror(errno))) }
            if waits[1].revents != 0 { return false }
            if waits[0].revents != 0, PQconsumeInput(connection) == 0 { throw failure() }
        }
    }

    /// Ends the connection; any later call fails as a lost connection.
    func finish() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    deinit { finish() }

    // MARK: Helpers

    private func open() throws(PostgresFailure) -> OpaquePointer {
        guard let connection else { throw PostgresFailure(lost: nil) }
        return connection
    }

    private func drainResults() {
        guard let connection else { return }
        while let result = PQgetResult(connection) { PQclear(result) }
    }

    private func check(_ result: OpaquePointer?) throws(PostgresFailure) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return
        default: throw failure(of: result)
        }
    }

    /// What `result` says went wrong: the server's error, or the connection's when there is none.
    private func failure(of result: OpaquePointer?) -> PostgresFailure {
        guard let result, let state = PQresultErrorField(result, PostgresFailure.Field.sqlState) else { return failure() }
        let field = { (code: Int32) in PQresultErrorField(result, code).map { String(cString: $0) } }
        return PostgresFailure(sqlState: String(cString: state), message: field(PostgresFailure.Field.message) ?? "an error",
                               detail: field(PostgresFailure.Field.detail))
    }

    /// The connection's own error: lost when libpq says the connection is bad.
    private func failure() -> PostgresFailure {
        guard let connection else { return PostgresFailure(lost: nil) }
        let message = String(cString: PQerrorMessage(connection))
        return PQstatus(connection) == CONNECTION_BAD ? PostgresFailure(lost: message) : PostgresFailure(client: message)
    }

    private static func row(_ index: Int32, of result: OpaquePointer?) -> PostgresRow {
        PostgresRow(columns: (0..<PQnfields(result)).map { column in
            guard PQgetisnull(result, index, column) == 0, let value = PQgetvalue(result, index, column) else { return nil }
            return Array(UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, index, column))).bindMemory(to: UInt8.self))
        })
    }

    /// Calls `body` with the parameters as libpq takes them: counts, types, values, lengths and
    /// formats (all binary).
    private static func withParameters<Result>(
        _ binds: PostgresBindings,
        _ body: (Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> Result
    ) -> Result {
        let values: [UnsafeMutablePointer<CChar>?] = binds.values.map { value in
            guard let value else { return nil }
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, value.count), alignment: 1)
            value.withUnsafeBytes { bytes in if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
            return copy.assumingMemoryBound(to: CChar.self)
        }
        defer { values.forEach { $0?.deallocate() } }
        let lengths = binds.values.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: binds.count)
        return binds.types.withUnsafeBufferPointer { types in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(Int32(binds.count), types.baseAddress, values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}

/// What went wrong, as libpq or the server said it (see ``ServerFailure`` for the user's line).
struct PostgresFailure: Error, CustomStringConvertible {
    enum Kind: Equatable {
        /// The server refused a statement: its SQLSTATE (`23505`), message and detail.
        case server(sqlState: String)
        /// The connection could not be made: libpq's message.
        case connecting
        /// The connection ended.
        case lost
        /// libpq refused the call itself.
        case client
    }

    let kind: Kind
    let message: String
    var detail: String?

    init(sqlState: String, message: String, detail: String?) {
        kind = .server(sqlState: sqlState)
        self.message = message
        self.detail = detail
    }

    init(connecting message: String) {
        kind = .connecting
        self.message = message
    }

    init(lost message: String?) {
        kind = .lost
        self.message = message ?? ""
    }

    init(client message: String) {
        kind = .client
        self.message = message
    }

    var sqlState: String? {
        if case .server(let state) = kind { return state }
        return nil
    }

    var description: String { message }

    /// libpq's codes of an error's fields (`PG_DIAG_*` of <postgres_ext.h>, character constants Swift does not import).
    enum Field {
        static let sqlState = Int32(UInt8(ascii: "C"))
        static let message = Int32(UInt8(ascii: "M"))
        static let detail = Int32(UInt8(ascii: "D"))
    }
}
