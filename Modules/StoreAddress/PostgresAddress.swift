import Foundation

/// Where a PostgreSQL mirror is and how to log in, read the way `libpq` (and so `psql`) reads
/// it: a connection URI (`postgresql://user:password@host:port/database?sslmode=require`, a
/// Unix socket directory as the host, `%2F`-encoded, or as `?host=/run/postgresql`), then the
/// `PG*` environment variables for what the URI leaves out (`PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`, `PGDATABASE`, `PGSSLMODE`, `PGSSLROOTCERT`, `PGCONNECT_TIMEOUT`), then the password file
/// (`PGPASSFILE`, else `~/.pgpass`), then the defaults: Debian's socket directory, port 5432,
/// the login name as user, the user as database.
///
/// Its ``description`` never holds the password: it is what messages show.
public struct PostgresAddress: Sendable, Equatable, CustomStringConvertible {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// A directory holding the server's socket (`.s.PGSQL.<port>`).
        case socket(directory: String, port: Int)
    }

    /// How TLS is used on a TCP connection (`sslmode`): `prefer` is libpq's default.
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    public var database: String
    public var tlsMode: TLSMode
    /// The file of certificate authorities that verify the server's certificate in `verify-ca`
    /// and `verify-full` (`sslrootcert`); `nil`: `~/.postgresql/root.crt` when there is one,
    /// else the system's authorities.
    public var tlsAuthorities: String?
    /// Seconds to wait for the connection (`connect_timeout`), 10 by default.
    public var connectTimeout: Int
    /// Whether the password came with the URI itself (then shown as `***`).
    public internal(set) var passwordInText: Bool

    /// The debian package's socket directory, libpq's default host there.
    static let defaultSocketDirectory = "/var/run/postgresql"

    /// Whether `text` names a PostgreSQL store rather than a directory.
    public static func isAddress(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Reads a connection URI.
    /// - Parameter environment: the process's environment (`PG*`, `HOME`); given for tests.
    /// - Throws: ``AddressError`` with one line saying what is wrong.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard let schemeEnd = text.range(of: "://"), Self.isAddress(text) else {
            throw AddressError("'\(Self.redacting(text))' is not a PostgreSQL URI: use postgresql://[user[:password]@][host][:port][/database]")
        }
        var rest = String(text[schemeEnd.upperBound...])
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let name = parts[0].removingPercentEncoding, let value = parts[1].removingPercentEncoding else {
                    throw AddressError("'\(pair)' in the PostgreSQL URI is not NAME=VALUE")
                }
                query[name] = value
            }
            rest = String(rest[..<mark])
        }
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[rest.index(after: slash)...])
            rest = String(rest[..<slash])
        }
        var uriUser: String?
        var uriPassword: String?
        if let at = rest.lastIndex(of: "@") {
            let parts = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            uriUser = parts[0].isEmpty ? nil : parts[0].removingPercentEncoding
            uriPassword = parts.count > 1 ? parts[1].removingPercentEncoding : nil
            rest = String(rest[rest.index(after: at)...])
        }
        let (uriHost, uriPort) = try Self.hostAndPort(rest)
        let known: Set = ["host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "connect_timeout", "application_name"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw AddressError("the PostgreSQL URI's parameter '\(unknown)' is not one Fresh reads (it reads \(known.sorted().joined(separator: ", ")))")
        }
        func setting(_ uri: String?, _ parameter: String, _ variable: String) -> String? {
            [uri, query[parameter], environment[variable]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        }
        let host = setting(uriHost, "host", "PGHOST") ?? Self.defaultSocketDirectory
        let portText = setting(uriPort, "port", "PGPORT") ?? "5432"
        guard let port = Int(portText), (1...65535).contains(port) else { throw AddressError("'\(portText)' is not a port number") }
        endpoint = host.hasPrefix("/") ? .socket(directory: host, port: port) : .tcp(host: host, port: port)
        user = setting(uriUser, "user", "PGUSER") ?? Self.loginName()
        database = setting(path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }, "dbname", "PGDATABASE") ?? user
        passwordInText = uriPassword != nil || query["password"] != nil
        let modeText = setting(nil, "sslmode", "PGSSLMODE") ?? TLSMode.prefer.rawValue
        guard let mode = TLSMode(rawValue: modeText) else {
            throw AddressError("sslmode '\(modeText)' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        tlsMode = mode
        tlsAuthorities = setting(nil, "sslrootcert", "PGSSLROOTCERT")
        let timeoutText = setting(nil, "connect_timeout", "PGCONNECT_TIMEOUT") ?? "10"
        guard let timeout = Int(timeoutText), timeout >= 0 else { throw AddressError("connect_timeout '\(timeoutText)' is not a number of seconds") }
        connectTimeout = timeout == 0 ? 10 : max(2, timeout)
        password = setting(uriPassword, "password", "PGPASSWORD")
        if password == nil { password = PasswordFile.password(for: self, environment: environment) }
    }

    /// The address as messages show it: a URI without the password (`***` where one was given).
    public var description: String {
        let credentials = passwordInText ? "\(user):***@" : "\(user)@"
        switch endpoint {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgresql://\(credentials)\(shownHost):\(port)/\(database)"
        case .socket(let directory, let port):
            let encoded = directory.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? directory
            return "postgresql://\(credentials)\(encoded)\(port == 5432 ? "" : ":\(port)")/\(database)"
        }
    }

    /// A URI as it may be shown before it is understood: its password replaced by `***`.
    public static func redacting(_ text: String) -> String {
        text.replacing(/^(postgres(?:ql)?:\/\/[^:@\/]*):[^@\/]*@/, with: { "\($0.1):***@" })
            .replacing(/([?&]password=)[^&]*/, with: { "\($0.1)***" })
    }

    private static func hostAndPort(_ text: String) throws -> (String?, String?) {
        guard !text.isEmpty else { return (nil, nil) }
        guard !text.contains(",") else { throw AddressError("several hosts in one PostgreSQL URI are not supported: give one") }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw AddressError("'\(text)': an IPv6 host needs its closing ']'") }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            return (host, after.hasPrefix(":") ? String(after.dropFirst()) : nil)
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let host = parts[0].removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        return (host, parts.count > 1 ? parts[1] : nil)
    }

    private static func loginName() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }
}

/// A connection URI or setting that cannot be used: one line for the user.
public struct AddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
