import JSON
import MirrorStore

// MirrorStore, pages as a replay serves them: what each call does is said on the protocol.
extension PostgresMirror {
    public func recordedPages(at url: String) async throws -> [RecordedPage] {
        let rows = try await connection.query("""
            SELECT p.collection_id, p.page_index, p.url, p.next_url, p.item_count, p.validator, p.pass, p.content_pass, p.fetched_at,
                p.stated_total, e.envelope
            FROM page p LEFT JOIN page_envelope e ON e.collection_id = p.collection_id AND e.page_index = p.page_index
            WHERE p.url = \(url) ORDER BY p.fetched_at DESC
            """)
        return try rows.map { row in
            let (id, index, url, nextURL, itemCount, validator, pass, contentPass, fetchedAt, statedTotal, envelope) = try row.decode(
                (Int64, Int, String, String?, Int, String?, Int, Int, Double, Int?, String?).self)
            let record = PageRecord(collectionID: id, pageIndex: index, url: url, nextURL: nextURL, itemCount: itemCount,
                                    validator: validator, pass: pass, contentPass: contentPass, fetchedAt: fetchedAt,
                                    statedTotal: statedTotal)
            return RecordedPage(record: record, envelope: envelope.flatMap(PageEnvelope.init(storedText:)))
        }
    }

    public func pageURLs(of id: Int64) async throws -> [String] {
        try await connection.query("SELECT url FROM page WHERE collection_id = \(id) ORDER BY page_index").map { try $0.decode(String.self) }
    }

    public func itemJSON(onPage index: Int, of id: Int64) async throws -> [String] {
        try await connection.query("""
            SELECT coalesce(exact_text, json::text) FROM item WHERE collection_id = \(id) AND page_index = \(index) ORDER BY position
            """).map { JSONText.compact(try $0.decode(String.self)) }
    }
}
