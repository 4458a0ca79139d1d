import HTTPCache
import HTTPTypes
import Testing

@Suite("Cache keys")
struct CacheKeyTests {
    /// The last variant key made is kept for the same inputs (a sync asks for one per page); a
    /// credential that is the same text in another Unicode form is other bytes, and another key.
    @Test func aCredentialInAnotherUnicodeFormIsAnotherVariant() {
        let composed: HTTPFields = [.authorization: "Bearer cl\u{E9}"]
        let decomposed: HTTPFields = [.authorization: "Bearer cle\u{301}"]
        let first = CacheKey.variant(vary: [], requestFields: composed)
        let second = CacheKey.variant(vary: [], requestFields: decomposed)
        #expect(first != nil && second != nil && first != second)
        #expect(CacheKey.variant(vary: [], requestFields: composed) == first)
        #expect(CacheKey.variant(vary: ["Accept"], requestFields: composed + [.accept: "text/plain"]) != first)
    }
}
