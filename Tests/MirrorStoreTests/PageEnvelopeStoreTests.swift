import Foundation
import JSON
import MirrorStore
import StoreTestSupport
import Testing

/// What a replay reads: pages by URL with the envelope kept beside each, page URLs, a page's
/// items; run against both stores.
@Suite("Mirror store: page envelopes for a replay, in SQLite and PostgreSQL")
struct PageEnvelopeStoreTests {
    static let envelope = PageEnvelope(fields: [.init(name: "ETag", value: "\"e1\""), .init(name: "Link", value: "<http://o.test/p?page=2>; rel=\"next\"")],
                                       before: #"{"data":"#, after: #","next":"http://o.test/p?page=2"}"#)

    static func page(_ index: Int, envelope: PageEnvelope?, items: [Int]) -> PageContent {
        PageContent(index: index, url: "http://o.test/p?page=\(index + 1)", nextURL: nil, validator: nil,
                    items: items.map { (key: ItemKey.integer($0), json: Data(#"{"id":\#($0)}"#.utf8)) }, envelope: envelope)
    }

    @Test func theStoredTextReadsBackWhateverTheBodyHolds() {
        let envelope = PageEnvelope(fields: [.init(name: "ETag", value: #"W/"a\b""#)],
                                    before: "{\"data\":\t\n\u{1}\u{1F}é한🚀\\", after: "}\r")
        #expect(PageEnvelope(storedText: envelope.storedText) == envelope)
        #expect(envelope.storedText == PageEnvelope(storedText: envelope.storedText)?.storedText)
    }

    @Test(arguments: StoreKind.allCases)
    func envelopesAreKeptWithTheirPagesAndGoWithThem(_ kind: StoreKind) async throws {
        let mirror = try await StoreUnderTest(kind)
        let (store, id) = (mirror.store, mirror.collection.id)
        _ = try await store.writePages([Self.page(0, envelope: Self.envelope, items: [1, 2]), Self.page(1, envelope: nil, items: [3])],
                                       of: id, pass: 1, now: Date())
        let first = try await store.recordedPages(at: "http://o.test/p?page=1")
        #expect(first.map(\.envelope) == [Self.envelope])
        #expect(first.first?.record.pageIndex == 0 && first.first?.record.collectionID == id)
        #expect(try await store.recordedPages(at: "http://o.test/p?page=2").map(\.envelope) == [nil])
        #expect(try await store.recordedPages(at: "http://o.test/p?page=9").isEmpty)
        #expect(try await store.pageURLs(of: id) == ["http://o.test/p?page=1", "http://o.test/p?page=2"])
        #expect(try await store.itemJSON(onPage: 0, of: id) == [#"{"id":1}"#, #"{"id":2}"#])
        #expect(Self.envelope.body(items: try await store.itemJSON(onPage: 0, of: id))
                == Data(#"{"data":[{"id":1},{"id":2}],"next":"http://o.test/p?page=2"}"#.utf8))

        // A page written again without one forgets the old envelope; the pages a pass drops are not found.
        _ = try await store.writePages([Self.page(0, envelope: nil, items: [1, 2])], of: id, pass: 2, now: Date())
        #expect(try await store.recordedPages(at: "http://o.test/p?page=1").map(\.envelope) == [nil])
        _ = try await store.writePages([Self.page(0, envelope: Self.envelope, items: [1, 2])], of: id, pass: 3, now: Date())
        _ = try await store.finishPass(3, of: id, lastPage: 0, removingUnlisted: true, recording: .full, now: Date())
        #expect(try await store.pageURLs(of: id) == ["http://o.test/p?page=1"])
        #expect(try await store.recordedPages(at: "http://o.test/p?page=1").map(\.envelope) == [Self.envelope])
        #expect(try await store.problems().isEmpty)
    }
}
