import Foundation
import GRDB
import HTTPCache
import HTTPTypes

/// A stored response as the cache database keeps it: one row of `cacheEntry` (status, headers,
/// times, size) and, by its `bodyID`, one row of `cacheBody` (why: docs/http-caching.md §9).
struct CacheEntryRecord {
    var key: String
    var variantKey: String
    var url: String
    var method: String
    var status: Int
    var headers: String
    var body: Data
    var requestTime: Double
    var responseTime: Double
    /// ``StoredResponse/approximateSize``, kept for eviction arithmetic.
    var size: Int
    /// Last use, for least-recently-used eviction.
    var lastAccess: Double
    /// ``OmittedBody``'s length and digest, for an entry stored without its body.
    var omittedLength: Int?
    var omittedDigest: String?
}

extension CacheEntryRecord {
    init(_ entry: StoredResponse, accessedAt: Date) {
        key = entry.key
        variantKey = entry.variantKey
        url = entry.url.absoluteString
        method = entry.method.rawValue
        status = entry.status.code
        headers = Self.lines(of: entry.headerFields)
        body = entry.body
        requestTime = entry.requestTime.timeIntervalSince1970
        responseTime = entry.responseTime.timeIntervalSince1970
        size = entry.approximateSize
        lastAccess = accessedAt.timeIntervalSince1970
        omittedLength = entry.omittedBody?.length
        omittedDigest = entry.omittedBody?.digest
    }

    var storedResponse: StoredResponse? {
        guard let url = URL(string: url), let method = HTTPRequest.Method(method) else { return nil }
        return StoredResponse(
            key: key, variantKey: variantKey, url: url, method: method, status: HTTPResponse.Status(code: status),
            headerFields: Self.fields(fromLines: headers), body: body, requestTime: Date(timeIntervalSince1970: requestTime),
            responseTime: Date(timeIntervalSince1970: responseTime),
            omittedBody: omittedLength.map { OmittedBody(length: $0, digest: omittedDigest) })
    }

    /// The header fields as `Name: value` lines, the form of the `headers` column.
    static func lines(of fields: HTTPFields) -> String {
        var text = ""
        text.reserveCapacity(fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 3 })
        for field in fields {
            if !text.isEmpty { text += "\n" }
            text += field.name.rawName
            text += ": "
            text += field.value
        }
        return text
    }

    /// Parses the `Name: value` lines written by ``init(_:accessedAt:)``, byte by byte; lines
    /// without a colon or with an invalid name are skipped.
    static func fields(fromLines text: String) -> HTTPFields {
        var text = text
        return text.withUTF8 { bytes in
            var fields = HTTPFields()
            fields.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if let colon = bytes[lineStart..<lineEnd].firstIndex(of: UInt8(ascii: ":")),
                   let name = HTTPField.Name(String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<colon]), as: UTF8.self)) {
                    let valueStart = colon + 1 < lineEnd && bytes[colon + 1] == UInt8(ascii: " ") ? colon + 2 : colon + 1
                    let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<lineEnd]), as: UTF8.self)
                    fields.append(HTTPField(name: name, value: value))
                }
                lineStart = lineEnd + 1
            }
            return fields
        }
    }

    // MARK: SQL

    /// The stored variants of `key`, newest first, read through GRDB: the plain path of what
    /// `CacheConnection` reads directly.
    static func variants(forKey key: String, in db: Database) throws -> [CacheEntryRecord] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT e.*, b.body FROM cacheEntry e JOIN cacheBody b ON b.id = e.bodyID WHERE e.key = ? ORDER BY e.responseTime DESC
            """), arguments: [key]).map { row in
            CacheEntryRecord(key: row["key"], variantKey: row["variantKey"], url: row["url"], method: row["method"], status: row["status"],
                             headers: row["headers"], body: row["body"], requestTime: row["requestTime"], responseTime: row["responseTime"],
                             size: row["size"], lastAccess: row["lastAccess"], omittedLength: row["omittedLength"],
                             omittedDigest: row["omittedDigest"])
        }
    }

    /// Stores this record: its entry row, replacing the stored variant with the same keys, and its
    /// body, over the replaced one's row (docs/http-caching.md §9) or, when that is missing, anew.
    func save(_ db: Database) throws {
        var bodyID = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT bodyID FROM cacheEntry WHERE key = ? AND variantKey = ?"),
            arguments: [key, variantKey])
        if let stored = bodyID {
            try db.cachedStatement(sql: "UPDATE cacheBody SET body = ? WHERE id = ?").execute(arguments: [body, stored])
            if db.changesCount == 0 { bodyID = nil }
        }
        if bodyID == nil {
            try db.cachedStatement(sql: "INSERT INTO cacheBody (body) VALUES (?)").execute(arguments: [body])
            bodyID = db.lastInsertedRowID
        }
        try db.cachedStatement(sql: """
            INSERT INTO cacheEntry (key, variantKey, url, method, status, headers, requestTime, responseTime, size, lastAccess, bodyID,
                                    omittedLength, omittedDigest)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (key, variantKey) DO UPDATE SET url = excluded.url, method = excluded.method,
                status = excluded.status, headers = excluded.headers, requestTime = excluded.requestTime,
                responseTime = excluded.responseTime, size = excluded.size, lastAccess = excluded.lastAccess,
                bodyID = excluded.bodyID, omittedLength = excluded.omittedLength, omittedDigest = excluded.omittedDigest
            """).execute(arguments: [key, variantKey, url, method, status, headers, requestTime, responseTime, size, lastAccess, bodyID,
                                     omittedLength, omittedDigest])
    }

    /// This stored row with the headers, times and size of `refresh` (a 304), its body kept; as
    /// in ``updateHeadersAndTimes(with:)``, a row stored after the refresh's request stays as it is.
    func refreshed(by refresh: CacheEntryRecord) -> CacheEntryRecord {
        guard responseTime <= refresh.requestTime else { return self }
        var record = refresh
        record.body = body
        return record
    }

    static let updateHeadersAndTimesSQL = """
        UPDATE cacheEntry SET headers = ?, requestTime = ?, responseTime = ?, size = ?, lastAccess = ?
        WHERE key = ? AND variantKey = ? AND responseTime <= ?
        """

    /// Writes this record's headers, times and size over the stored row, body untouched (the 304
    /// path), with `statement` prepared from ``updateHeadersAndTimesSQL``; a row stored after this
    /// revalidation's request was sent is left alone: these headers describe the older body.
    func updateHeadersAndTimes(with statement: borrowing RawStatement) throws {
        try statement.run(.text(headers), .real(requestTime), .real(responseTime), .integer(size), .real(lastAccess),
                          .text(key), .text(variantKey), .real(requestTime))
    }

    /// Deletes least-recently-used entries until the total size fits `capacity`.
    static func evict(_ db: Database, toFit capacity: Int) throws -> Int {
        var evicted = 0
        while try totalBytes(db) > capacity {
            let oldest = try Row.fetchOne(db, sql: "SELECT key, variantKey FROM cacheEntry ORDER BY lastAccess ASC LIMIT 1")
            guard let oldest else { break }
            try db.execute(sql: "DELETE FROM cacheEntry WHERE key = ? AND variantKey = ?",
                           arguments: [oldest["key"] as String, oldest["variantKey"] as String])
            evicted += 1
        }
        return evicted
    }

    static func totalBytes(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT totalBytes FROM cacheMeta WHERE id = 1")) ?? 0
    }
}
