import Foundation
import HTTPCache

/// What a ``CacheDatabase`` batches in memory and writes later: use times, outcome counts and
/// the new headers and times of entries a 304 renewed.
struct CacheBookkeeping {
    struct VariantID: Hashable {
        var key: String
        var variantKey: String
    }

    var accesses: [VariantID: Double] = [:]
    var outcomes: [CacheOutcome.Kind: CacheOutcome] = [:]
    var counts: [CacheOutcome.Kind: Int] = [:]
    /// 304 refreshes: new headers and times over a stored row, its body kept.
    var refreshes: [VariantID: CacheEntryRecord] = [:]
    var oldestRefresh: Date?

    var isEmpty: Bool { accesses.isEmpty && outcomes.isEmpty && refreshes.isEmpty }

    /// Writes the batch on the connection `handle`, inside the caller's transaction: the
    /// ``CacheConnection``'s own, or the GRDB transaction of a store.
    func write(on handle: OpaquePointer) throws {
        if !refreshes.isEmpty {
            let update = try RawStatement(CacheEntryRecord.updateHeadersAndTimesSQL, on: handle)
            for record in refreshes.values { try record.updateHeadersAndTimes(with: update) }
        }
        if !accesses.isEmpty {
            let touch = try RawStatement("UPDATE cacheEntry SET lastAccess = ? WHERE key = ? AND variantKey = ?", on: handle)
            for (variant, at) in accesses { try touch.run(.real(at), .text(variant.key), .text(variant.variantKey)) }
        }
        if !outcomes.isEmpty {
            let count = try RawStatement("""
                INSERT INTO cacheStat (kind, count, bytesSaved, bytesReceived) VALUES (?, ?, ?, ?)
                ON CONFLICT(kind) DO UPDATE SET count = count + excluded.count,
                    bytesSaved = bytesSaved + excluded.bytesSaved, bytesReceived = bytesReceived + excluded.bytesReceived
                """, on: handle)
            for (kind, total) in outcomes {
                try count.run(.text(kind.rawValue), .integer(counts[kind] ?? 0), .integer(total.bytesSaved), .integer(total.bytesReceived))
            }
        }
    }
}
