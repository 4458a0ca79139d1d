import Foundation
import GRDBSQLite

/// Reads a large BLOB straight from SQLite's pages into a buffer of its own (`sqlite3_blob_read`).
///
/// Selecting the column instead makes SQLite assemble the value in a temporary buffer, which is
/// then copied into `Data`: two allocations and two copies of the whole body on every hit, and
/// on glibc the second allocation of a 100 KB body often faults its pages in again.
enum BlobReader {
    /// The value of `column` in the row `rowID` of `table`, read on `connection`.
    static func read(_ connection: OpaquePointer, table: String, column: String, rowID: Int64) throws -> Data {
        var handle: OpaquePointer?
        let opened = sqlite3_blob_open(connection, "main", table, column, rowID, 0, &handle)
        guard opened == SQLITE_OK, let blob = handle else {
            sqlite3_blob_close(handle)
            throw CacheConnection.error(opened, connection)
        }
        defer { sqlite3_blob_close(blob) }
        let count = Int(sqlite3_blob_bytes(blob))
        guard count > 0 else { return Data() }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 1)
        let read = sqlite3_blob_read(blob, bytes, Int32(count), 0)
        guard read == SQLITE_OK else {
            bytes.deallocate()
            throw CacheConnection.error(read, connection)
        }
        return Data(bytesNoCopy: bytes, count: count, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }
}
