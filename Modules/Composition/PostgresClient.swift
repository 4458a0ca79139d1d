import Foundation
import MirrorStore
import StorageErrors
import StoreAddress

/// Whether this program carries the PostgreSQL client, and so how it opens a PostgreSQL mirror.
///
/// The client is libpq, and with it 23 more shared objects (OpenSSL, Kerberos, LDAP, GnuTLS)
/// that the loader maps and relocates at every start. `fresh` starts for every cached `fresh
/// get`, which must start as fast as curl, so it is built without the client. A command line
/// that opens a PostgreSQL mirror is handed whole to `fresh-postgresql` (the same commands,
/// built with the client, installed beside `fresh`), as `git` runs `git-NAME`: the process is
/// replaced, so the pid, the standard streams and the exit status are that command's.
/// `fresh-reader` carries the client.
public enum PostgresClient: Sendable {
    /// The client is in this program.
    case linked(open: @Sendable (PostgresAddress) async throws -> any MirrorStore)
    /// The client is in the program of this name, in the directory of this one.
    case inProgram(named: String)

    /// What this program has: set by its `main` before anything else runs. `nil` (tests) opens
    /// no PostgreSQL mirror.
    nonisolated(unsafe) public static var current: PostgresClient?

    /// Opens the mirror at `address` with this program's client, or hands this process's
    /// command line to the program with it (never returning).
    /// - Throws: ``StorageError/cannotOpen(path:reason:)`` when there is no client to use.
    static func open(_ address: PostgresAddress) async throws -> any MirrorStore {
        try handOffIfElsewhere(address)
        guard case .linked(let open)? = current else { throw unavailable(address, "this program is built without the PostgreSQL client") }
        return try await open(address)
    }

    /// Set in the environment of the program handed to: one that hands off again is not the
    /// program with the client (a copy of `fresh` under its name), and would loop.
    static let handedOffVariable = "FRESH_HANDED_OFF"

    /// Replaces this process with the program that has the client, when it is another one.
    static func handOffIfElsewhere(_ address: PostgresAddress) throws {
        guard case .inProgram(let name)? = current else { return }
        guard getenv(handedOffVariable) == nil else { throw unavailable(address, "\(name) was run, but it has no PostgreSQL client") }
        guard let this = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw unavailable(address, "PostgreSQL mirrors are opened by \(name), and this program's directory is unknown")
        }
        let program = URL(fileURLWithPath: this).deletingLastPathComponent().appendingPathComponent(name).path
        var arguments = ([program] + CommandLine.arguments.dropFirst()).map { strdup($0) } + [nil]
        setenv(handedOffVariable, "1", 1)
        // This runs on a thread of the pool, which blocks most signals; the mask would outlive exec.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        fflush(nil)
        execv(program, &arguments)
        unsetenv(handedOffVariable)
        let reason = String(cString: strerror(errno)).lowercased()
        arguments.forEach { free($0) }
        throw unavailable(address, "PostgreSQL mirrors are opened by \(name), and \(program) cannot be run (\(reason))")
    }

    private static func unavailable(_ address: PostgresAddress, _ reason: String) -> StorageError {
        .cannotOpen(path: address.description, reason: reason)
    }
}
