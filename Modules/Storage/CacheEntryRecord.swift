import Foundation
import GRDB
import HTTPCache
import HTTPTypes

/// One row of the cache database's `cacheEntry` table: a stored response.
struct CacheEntryRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "cacheEntry"

    var key: String
    var variantKey: String
    var url: String
    var method: String
    var status: Int
    /// Header fields as `Name: value` lines.
    var headers: String
    var body: Data
    var requestTime: Double
    var responseTime: Double
    /// ``StoredResponse/approximateSize``, kept for eviction arithmetic.
    var size: Int
    /// Last use, for least-recently-used eviction.
    var lastAccess: Double

    init(_ entry: StoredResponse, accessedAt: Date) {
        key = entry.key
        variantKey = entry.variantKey
        url = entry.url.absoluteString
        method = entry.method.rawValue
        status = entry.status.code
        headers = entry.headerFields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "\n")
        body = entry.body
        requestTime = entry.requestTime.timeIntervalSince1970
        responseTime = entry.responseTime.timeIntervalSince1970
        size = entry.approximateSize
        lastAccess = accessedAt.timeIntervalSince1970
    }

    /// Reads a row column by column; faster than the `Decodable` default on the hit path.
    init(row: Row) throws {
        key = row["key"]
        variantKey = row["variantKey"]
        url = row["url"]
        method = row["method"]
        status = row["status"]
        headers = row["headers"]
        body = row["body"]
        requestTime = row["requestTime"]
        responseTime = row["responseTime"]
        size = row["size"]
        lastAccess = row["lastAccess"]
    }

    var storedResponse: StoredResponse? {
        guard let url = URL(string: url), let method = HTTPRequest.Method(method) else { return nil }
        var fields = HTTPFields()
        for line in headers.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            fields.append(HTTPField(name: name, value: String(line[line.index(after: colon)...].dropFirst())))
        }
        return StoredResponse(
            key: key, variantKey: variantKey, url: url, method: method, status: HTTPResponse.Status(code: status),
            headerFields: fields, body: body, requestTime: Date(timeIntervalSince1970: requestTime),
            responseTime: Date(timeIntervalSince1970: responseTime))
    }

    // MARK: SQL

    static func variants(_ db: Database, key: String) throws -> [CacheEntryRecord] {
        let statement = try db.cachedStatement(sql: "SELECT * FROM cacheEntry WHERE key = ? ORDER BY responseTime DESC")
        return try CacheEntryRecord.fetchAll(statement, arguments: [key])
    }

    /// Writes this record's headers, times and size over the stored row, leaving the body
    /// as it is (the 304 path).
    func updateHeadersAndTimes(_ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE cacheEntry SET headers = ?, requestTime = ?, responseTime = ?, size = ?, lastAccess = ?
            WHERE key = ? AND variantKey = ?
            """)
        try statement.execute(arguments: [headers, requestTime, responseTime, size, lastAccess, key, variantKey])
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

/// The migrations of the cache database, append-only.
enum CacheSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-cache-entries") { db in
            try db.execute(sql: """
                CREATE TABLE cacheEntry (
                    key TEXT NOT NULL,
                    variantKey TEXT NOT NULL,
                    url TEXT NOT NULL,
                    method TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    headers TEXT NOT NULL,
                    body BLOB NOT NULL,
                    requestTime DOUBLE NOT NULL,
                    responseTime DOUBLE NOT NULL,
                    size INTEGER NOT NULL,
                    lastAccess DOUBLE NOT NULL,
                    PRIMARY KEY (key, variantKey)
                );
                CREATE INDEX cacheEntryByLastAccess ON cacheEntry(lastAccess);
                CREATE TABLE cacheMeta (id INTEGER PRIMARY KEY CHECK (id = 1), totalBytes INTEGER NOT NULL);
                INSERT INTO cacheMeta (id, totalBytes) VALUES (1, 0);
                CREATE TRIGGER cacheEntryInserted AFTER INSERT ON cacheEntry BEGIN
                    UPDATE cacheMeta SET totalBytes = totalBytes + NEW.size WHERE id = 1;
                END;
                CREATE TRIGGER cacheEntryDeleted AFTER DELETE ON cacheEntry BEGIN
                    UPDATE cacheMeta SET totalBytes = totalBytes - OLD.size WHERE id = 1;
                END;
                CREATE TRIGGER cacheEntryResized AFTER UPDATE OF size ON cacheEntry BEGIN
                    UPDATE cacheMeta SET totalBytes = totalBytes - OLD.size + NEW.size WHERE id = 1;
                END;
                CREATE TABLE cacheStat (
                    kind TEXT PRIMARY KEY,
                    count INTEGER NOT NULL DEFAULT 0,
                    bytesSaved INTEGER NOT NULL DEFAULT 0,
                    bytesReceived INTEGER NOT NULL DEFAULT 0
                );
                """)
        }
        return migrator
    }
}
