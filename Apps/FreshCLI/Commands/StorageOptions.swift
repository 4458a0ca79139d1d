import ArgumentParser
import Composition
import Foundation
import MirrorStore
import Storage
import StorageErrors
import StoreAddress
import SyncEngine

/// Where the mirror lives, for every command that opens it: `--db-dir` and `--store`.
struct StorageOptions: ParsableArguments {
    @OptionGroup var directory: DirectoryOption

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The mirror: 'sqlite' (data.sqlite in the data directory, the default) or a PostgreSQL URI, postgresql://[user@]host[:port]/database (default: a source's own store when a command is given its name, else FRESH_STORE; the password from PGPASSWORD or ~/.pgpass).",
        valueName: "store"))
    var store: String?

    var location: StorageLocation { directory.location }

    func validate() throws {
        if store == "" { throw ValidationError("--store is empty: give 'sqlite' or a postgresql:// URI") }
        // Only the flag: FRESH_STORE is read when a command opens the mirror.
        guard let store else { return }
        do { _ = try MirrorChoice.resolve(store) } catch let error as AddressError { throw ValidationError(error.description) }
    }

    /// The mirror `--store`, else `given` (a source's `store`), else `FRESH_STORE` names.
    func mirrorChoice(given: String? = nil) throws -> MirrorChoice { try MirrorChoice.resolve(store ?? given) }

    /// Hands the command line to the program with the PostgreSQL client when one of the mirrors
    /// named (as `given` is) needs it (see ``PostgresClient``); a command that opens several, or
    /// does something before it opens one, calls this first.
    func handOffIfElsewhere(_ given: [String?]) throws {
        for store in given { try mirrorChoice(given: store).handOffIfElsewhere() }
    }

    /// Whether a reading command finds no mirror to read: an SQLite mirror whose file does not
    /// exist yet (a new machine, a mistyped `--db-dir`). Reading creates nothing, so such a command
    /// answers as for an empty mirror instead of opening one.
    func noMirrorYet(given: String? = nil) throws -> Bool {
        try mirrorChoice(given: given) == .sqlite && !FileManager.default.fileExists(atPath: location.itemDatabasePath)
    }

    /// The damage an earlier command found in an SQLite mirror and marked (`data.sqlite.damaged`):
    /// a reading command that read all it was asked shows it, then ends with this line (exit 6),
    /// as one that meets the damage itself does, since what the file holds may be incomplete.
    func recordedDamage(given: String? = nil) throws -> StorageError? {
        guard try mirrorChoice(given: given) == .sqlite else { return nil }
        return DamageMarker.recordedDamage(of: location.itemDatabasePath)
    }

    /// Runs `body` with the mirror open, and closes it however `body` ends. A PostgreSQL mirror in
    /// `fresh` never returns here (the line is handed to fresh-postgresql): nothing the command
    /// does before it may be seen or kept.
    /// - Parameters:
    ///   - forReading: for commands that only read it: a damaged SQLite mirror, or one in a
    ///     directory that cannot be written, is opened read-only.
    ///   - given: a source's `store`, used unless `--store` names one.
    ///   - services: whose ``FreshServices/finish()`` runs however this ends, beside the mirror's
    ///     close rather than after it: each settles a file of its own (the cache's WAL, the
    ///     mirror's last checkpoint), and neither need wait for the other's disk.
    func withMirror<Value>(forReading: Bool = false, given: String? = nil, finishing services: FreshServices? = nil,
                           _ body: (any MirrorStore) async throws -> Value) async throws -> Value {
        let store: any MirrorStore
        do {
            store = try await mirrorChoice(given: given).open(location: location, forReading: forReading)
        } catch {
            await services?.finish()
            throw error
        }
        let result: Result<Value, any Error>
        do { result = .success(try await body(store)) } catch { result = .failure(error) }
        async let closed: Void = store.close()
        await services?.finish()
        await closed
        return try result.get()
    }
}

/// Byte sizes as people type them: `500`, `64K`, `1.5M`, `100MB`, `2GiB` (powers of 1024, any
/// letter case). Anything else (`0x10`, `1e3`, `1BK`, `-5`) is not a size.
enum ByteCount {
    static func parse(_ text: String) -> Int? {
        let size = /\s*(\d+(?:\.\d+)?)\s*(?:([KMGkmg])(?:[iI]?[bB])?|[bB])?\s*/
        guard let match = text.wholeMatch(of: size), let value = Double(match.1) else { return nil }
        let exponent = match.2.map { ["K": 10, "M": 20, "G": 30][$0.uppercased()]! } ?? 0
        let bytes = value * Double(1 << exponent)
        return bytes < 0x1p50 ? Int(bytes) : nil
    }

    static func format(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: "\(bytes) B"
        case ..<(1 << 20): String(format: "%.1f KiB", Double(bytes) / 1024)
        case ..<(1 << 30): String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
        default: String(format: "%.2f GiB", Double(bytes) / Double(1 << 30))
        }
    }
}
