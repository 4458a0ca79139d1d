import GRDB
import StorageErrors

extension StorageError {
    /// An error from a query on an open database as a ``StorageError``, or `nil` when `error`
    /// does not come from the database: pages damaged after the file was opened show up here.
    public static func fromQuery(_ error: any Error) -> StorageError? {
        guard let error = error as? DatabaseError else { return nil }
        return .failed(DatabaseFile.message(of: error) + (isDamage(error) ? " (the file is damaged)" : ""))
    }

    /// Whether `error` says the database file is damaged (not merely busy or unwritable).
    public static func isDamage(_ error: any Error) -> Bool { DatabaseFile.isCorruption(error) }
}
