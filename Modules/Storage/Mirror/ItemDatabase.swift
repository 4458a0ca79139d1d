import Foundation
import GRDB
import Pagination

/// The local item database (`data.sqlite`): the mirrored collections, the source of truth.
///
/// Each collection keeps its pages (the URL requested, the next page's URL, what identifies
/// the content) and its items, as the JSON the server sent, keyed by (collection, key). A
/// page's items and its record are written in one transaction, so a sync stopped anywhere
/// leaves whole pages; a page whose content did not change is not rewritten.
///
/// Commits are not flushed to the disk one by one (`synchronous = NORMAL` in WAL mode): a
/// killed process loses nothing committed, and a power cut can lose only the last commits,
/// which the next sync fetches again; the file stays consistent either way. A damaged file
/// is never moved, rebuilt or written to: see ``MirrorCheck``.
public final class ItemDatabase: Sendable {
    public let path: String
    let pool: DatabasePool
    let checkpointer: Checkpointer

    /// Opens (creating if needed) the item database at `path`, migrating an older schema.
    /// - Parameter readOnly: open without writing anything (no migration, no new file), for a
    ///   reader of a read-only directory.
    public init(path: String, readOnly: Bool = false) throws {
        self.path = path
        if !readOnly { try DamageMarker.refuseIfMarked(path) }
        checkpointer = Checkpointer(path: path)
        pool = try DatabaseFile.openPool(at: path, durability: .normal, migrator: ItemSchema.migrator,
                                         probeTables: ["collection", "page", "item"], readOnly: readOnly)
    }

    /// Runs a write, turning its errors into ``StorageError``s; damage found while writing
    /// marks the file (see ``DamageMarker``) so no later run writes to it. A duplicate key
    /// found by ``PageWriter`` passes through as it is.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        do {
            return try pool.write(updates)
        } catch let found as PageWriter.ListedBefore {
            throw found
        } catch {
            throw failure(error)
        }
    }

    /// Runs a read, turning its errors into ``StorageError``s.
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(value)
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> StorageError {
        if StorageError.isDamage(error) {
            DamageMarker.mark(path, reason: DatabaseFile.message(of: error))
            return .corrupted(path: path, reason: DatabaseFile.message(of: error))
        }
        return DatabaseFile.classify(error, path: path)
    }
}
