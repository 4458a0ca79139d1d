import Foundation
import NIOCore
import NIOPosix
import PostgresNIO
import StorageErrors
import StoreAddress

/// What went wrong with the server, as one line for the user: the connection refused, lost or
/// timed out; a role, a database or a right missing; the disk full. The password is never in
/// it (messages show the address as ``PostgresAddress/description`` does).
enum ServerFailure {
    /// The error of a session the server ended: what was committed stays.
    static func closed(at address: PostgresAddress) -> StorageError {
        .lost(location: address.description, reason: closedReason)
    }

    private static let closedReason = "the server closed the connection"

    static func storageError(_ error: any Error, at address: PostgresAddress, connecting: Bool = false) -> StorageError {
        if let storage = error as? StorageError { return storage }
        let place = address.description
        guard let failure = error as? PSQLError else {
            return connecting ? .cannotOpen(path: place, reason: describe(error)) : .failed(describe(error))
        }
        if let info = failure.serverInfo {
            let message = info[.message] ?? "an error"
            switch info[.sqlState] ?? "" {
            case "28P01", "28000", "3D000": // a wrong password, no such role, no such database
                return .cannotOpen(path: place, reason: message)
            case "42501" where connecting:
                return .cannotOpen(path: place, reason: message)
            case "53100", "53200", "53300", "54000":
                return .cannotWrite(path: place, reason: message)
            case "57P01", "57P02", "57P03":
                return .lost(location: place, reason: message)
            case "XX001", "XX002": // the server's own files are damaged: its administrator's to mend, not `fresh check --recover`'s
                return .failed("the server reports damaged data: \(message)")
            default:
                return .failed(message + (info[.detail].map { " (\($0))" } ?? ""))
            }
        }
        switch failure.code {
        case .connectionError, .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            let reason = failure.underlying.map(describe) ?? failure.code.description
            return connecting ? .cannotOpen(path: place, reason: reason + hint(for: failure)) : .lost(location: place, reason: reason)
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return connecting ? .cannotOpen(path: place, reason: closedReason) : .lost(location: place, reason: closedReason)
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return .cannotOpen(path: place, reason: "the server asks for a password (give it in the URI, PGPASSWORD or ~/.pgpass)")
        default:
            return .failed(failure.underlying.map(describe) ?? failure.code.description)
        }
    }

    private static func hint(for failure: PSQLError) -> String {
        guard let io = failure.underlying as? IOError ?? (failure.underlying as? NIOConnectionError)?.connectionErrors.first?.error as? IOError
        else { return "" }
        return [ECONNREFUSED, ENOENT].contains(io.errnoCode) ? " (is the server running?)" : ""
    }

    /// An error of the network layer in a few words (`connection refused`, `timed out`).
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let io as IOError: String(cString: strerror(io.errnoCode)).lowercased()
        case let connection as NIOConnectionError:
            connection.connectionErrors.first.map { describe($0.error) }
                ?? connection.dnsAError.map(describe) ?? connection.dnsAAAAError.map(describe) ?? "cannot connect"
        case ChannelError.connectTimeout: "timed out"
        case let resolution as SocketAddressError: "cannot resolve the host (\(resolution))"
        default: String(describing: error)
        }
    }
}
