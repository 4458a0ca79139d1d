import Foundation
import GRDB
import HTTPCache
import HTTPTypes
@testable import Storage
import Testing

/// A sync's page entries are stored without their bodies, keeping the body's length and
/// digest in columns of their own (``OmittedBody``), never as header fields.
@Suite("Cache database: bodies left out")
struct OmittedBodyTests {
    func page(_ key: String, omitted: OmittedBody?, headers: HTTPFields = [.cacheControl: "max-age=60"]) -> StoredResponse {
        let url = URL(string: "http://o.test/items?page=2")!
        return StoredResponse(key: key, variantKey: "", url: url, method: .get, status: .ok, headerFields: headers, body: Data(),
                              requestTime: Date(timeIntervalSince1970: 1000), responseTime: Date(timeIntervalSince1970: 1001),
                              omittedBody: omitted)
    }

    @Test func whatIsKeptOfABodyIsReadBackAndSurvivesA304() throws {
        let directory = try TemporaryDirectory()
        let database = try CacheDatabase(path: directory.file("cache.sqlite"))
        let kept = OmittedBody(length: 51_234, digest: "89ab12cd34ef5678")
        let stored = page("sync GET http://o.test/items?page=2", omitted: kept)
        try database.store(stored)
        #expect(try database.variants(forKey: stored.key) == [stored])
        // The plain path's lookups, through GRDB, read the same.
        #expect(try CacheDatabase(path: directory.file("cache.sqlite"), rawLookups: false).variants(forKey: stored.key) == [stored])

        var renewed = stored
        renewed.headerFields[.cacheControl] = "max-age=120"
        renewed.requestTime = Date(timeIntervalSince1970: 2000)
        renewed.responseTime = Date(timeIntervalSince1970: 2001)
        try database.refresh(renewed)
        try database.flush()
        let after = try #require(try database.variants(forKey: stored.key).first)
        #expect(after.omittedBody == kept)
        #expect(after.headerFields[.cacheControl] == "max-age=120")

        let whole = page("GET http://o.test/items?page=2", omitted: nil)
        try database.store(whole)
        #expect(try database.variants(forKey: whole.key).first?.omittedBody == nil)
    }

    /// A v2 file (page entries that kept what they left out as two header fields) upgrades
    /// through the columns of v3 and the emptying of v4: its entries go, and a page entry stored
    /// then keeps what it leaves out in the columns.
    @Test func aFileFromBeforeTheColumnsUpgradesAndStoresPageEntries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cache.sqlite")
        let old = try DatabaseQueue(path: path)
        try CacheSchema.migrator.migrate(old, upTo: "v2-bodies-apart")
        let syncPage = page("sync GET http://o.test/items?page=2", omitted: nil,
                            headers: [.cacheControl: "max-age=60", HTTPField.Name("Fresh-Body-Length")!: "51234",
                                      HTTPField.Name("Fresh-Body-Digest")!: "89ab12cd34ef5678"])
        let response = page("GET http://o.test/items?page=2", omitted: nil)
        try old.write { db in
            for stored in [syncPage, response] {
                let record = CacheEntryRecord(stored, accessedAt: Date(timeIntervalSince1970: 1002))
                try db.execute(sql: "INSERT INTO cacheBody (body) VALUES (x'')")
                try db.execute(sql: """
                    INSERT INTO cacheEntry (key, variantKey, url, method, status, headers, requestTime, responseTime, size, lastAccess, bodyID)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [record.key, record.variantKey, record.url, record.method, record.status, record.headers,
                                     record.requestTime, record.responseTime, record.size, record.lastAccess, db.lastInsertedRowID])
            }
        }
        try old.close()

        let database = try CacheDatabase(path: path)
        #expect(try database.variants(forKey: syncPage.key).isEmpty && database.variants(forKey: response.key).isEmpty)
        var stored = syncPage
        stored.headerFields = [.cacheControl: "max-age=60"]
        stored.omittedBody = OmittedBody(length: 51_234, digest: "89ab12cd34ef5678")
        try database.store(stored)
        #expect(try database.variants(forKey: syncPage.key) == [stored])
    }
}
