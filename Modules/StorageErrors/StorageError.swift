/// Why a database (the mirror, or the HTTP cache) could not be used. Each case reads as one
/// line for the user.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory or file cannot be created or opened (permissions, missing parent, …).
    case cannotOpen(path: String, reason: String)
    /// The database is damaged; nothing more is written to it (see `fresh check`).
    case corrupted(path: String, reason: String)
    /// Writing failed for lack of room or an I/O error (a full disk, a file-size limit); what
    /// was committed before stays.
    case cannotWrite(path: String, reason: String)
    /// The connection to a database server was lost (the server stopped, the network went
    /// away); what was committed before stays, and nothing half-written is visible.
    case lost(location: String, reason: String)
    /// A read or write failed.
    case failed(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open database at \(path): \(reason)"
        case .corrupted(let path, let reason):
            "database at \(path) is damaged (\(reason)); nothing more is written to it: 'fresh check' says where, 'fresh check --recover' saves what can be read to a new file"
        case .cannotWrite(let path, let reason): "cannot write to the database at \(path): \(reason) (is the disk full?)"
        case .lost(let location, let reason):
            "lost the connection to the database at \(location): \(reason); what was written before stays, and the next sync resumes"
        case .failed(let reason): "database error: \(reason)"
        }
    }
}
