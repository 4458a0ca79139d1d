import Foundation
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
        guard let failure = error as? PostgresFailure else {
            let reason = String(describing: error)
            return connecting ? .cannotOpen(path: place, reason: reason) : .failed(reason)
        }
        switch failure.kind {
        case .server(let sqlState):
            let message = failure.message
            switch sqlState {
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
                return .failed(message + (failure.detail.map { " (\($0))" } ?? ""))
            }
        case .connecting:
            return .cannotOpen(path: place, reason: reason(connecting: failure.message))
        case .lost:
            return connecting ? .cannotOpen(path: place, reason: closedReason) : .lost(location: place, reason: closedReason)
        case .client:
            return .failed(firstLine(of: failure.message))
        }
    }

    /// libpq's message of a connection that could not be made, in a few words: `connection
    /// refused (is the server running?)`, `database "team" does not exist`, `timed out`.
    static func reason(connecting message: String) -> String {
        // libpq says each address it tried, a line each, its hints on lines that start with a
        // tab: the last address tried is the one that says why (`localhost` is tried as ::1 first).
        let attempts = message.split(separator: "\n").reduce(into: [[String]]()) { attempts, line in
            if line.hasPrefix("\t"), !attempts.isEmpty { attempts[attempts.count - 1].append(line.trimmingCharacters(in: .whitespaces)) }
            else { attempts.append([line.trimmingCharacters(in: .whitespaces)]) }
        }
        guard let lines = attempts.last, var reason = lines.first else { return "cannot connect" }
        // "connection to server at "db" (10.0.0.5), port 5432 failed: Connection refused"
        if let failed = reason.range(of: " failed: ") { reason = String(reason[failed.upperBound...]) }
        if reason.hasPrefix("FATAL:") { reason = reason.dropFirst("FATAL:".count).trimmingCharacters(in: .whitespaces) }
        if reason.hasPrefix("fe_sendauth: no password supplied") {
            return "the server asks for a password (give it in the URI, PGPASSWORD or ~/.pgpass)"
        }
        if reason == "timeout expired" { return "timed out" }
        // An error of the system's (the next line asks whether the server runs): lower case, as others here.
        if lines.dropFirst().contains(where: { $0.hasPrefix("Is the server running") }) {
            return reason.lowercased() + " (is the server running?)"
        }
        return reason
    }

    private static func firstLine(of message: String) -> String {
        message.split(separator: "\n").first.map(String.init) ?? "an error of the PostgreSQL client"
    }
}
