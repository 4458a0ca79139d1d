import Foundation
import MirrorStore
import Storage
import StoreAddress

/// Which mirror a command uses: the SQLite file in the data directory (`data.sqlite`, the
/// embedded default), or a PostgreSQL database a team shares, named by a connection URI in
/// `--store`, a source's `store`, or `FRESH_STORE` (in that order).
public enum MirrorChoice: Sendable, Equatable {
    case sqlite
    case postgresql(PostgresAddress)

    /// The environment variable that names the store when no flag does.
    public static let environmentVariable = "FRESH_STORE"

    /// `given` (`--store`, a source's `store`), else `FRESH_STORE`: `sqlite` or nothing, else a `postgresql://` URI.
    /// - Throws: ``AddressError`` for anything else, or a URI that cannot be used.
    public static func resolve(_ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MirrorChoice {
        let text = [given, environment[environmentVariable]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        guard let text, text != "sqlite" else { return .sqlite }
        guard PostgresAddress.isAddress(text) else {
            throw AddressError("store '\(PostgresAddress.redacting(text))' is neither 'sqlite' nor a postgresql:// URI")
        }
        return .postgresql(try PostgresAddress(parsing: text, environment: environment))
    }

    /// Opens the mirror (`location`: the data directory, where the SQLite file is); `forReading`, for
    /// commands that only read it, opens a damaged SQLite file, or one in an unwritable directory, read-only.
    public func open(location: StorageLocation, forReading: Bool = false) async throws -> any MirrorStore {
        switch self {
        case .sqlite:
            let path = location.itemDatabasePath
            return forReading ? try SQLiteMirror.openForReading(path: path) : try SQLiteMirror(path: path)
        case .postgresql(let address):
            return try await PostgresClient.open(address)
        }
    }

    /// For commands that open several mirrors: hands the command line to the program with the
    /// PostgreSQL client before the first is opened, when one of them needs it (see
    /// ``PostgresClient``), so that no mirror is synced twice.
    public func handOffIfElsewhere() throws {
        if case .postgresql(let address) = self { try PostgresClient.handOffIfElsewhere(address) }
    }
}
