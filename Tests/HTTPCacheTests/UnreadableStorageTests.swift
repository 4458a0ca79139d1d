import Foundation
import HTTPCache
import HTTPTypes
import Testing

@Suite("CachingClient: a store that cannot be read")
struct UnreadableStorageTests {
    private func send(_ policy: CachePolicy, method: HTTPRequest.Method = .get, headers: HTTPFields = [:],
                      answer fields: [String: String] = ["Cache-Control": "max-age=60"]) async throws -> (CachedResponse, ScriptedTransport) {
        let transport = ScriptedTransport { _ in response(.ok, fields, body: "page") }
        let client = CachingClient(transport: transport, storage: UnreadableStorage())
        let answer = try await client.send(TransportRequest(method: method, url: URL(string: "http://origin.test/a")!, headerFields: headers),
                                           policy: policy)
        return (answer, transport)
    }

    /// A response that must replace what is stored, and an unsafe method, say when the old
    /// entries could not be removed.
    @Test(arguments: [(HTTPRequest.Method.get, "no-store"), (.post, "max-age=60")])
    func anInvalidationThatFailsIsAReason(method: HTTPRequest.Method, cacheControl: String) async throws {
        let (answer, _) = try await send(.useProtocolCachePolicy, method: method, answer: ["Cache-Control": cacheControl])
        #expect(answer.decision.reasons.contains { $0.hasPrefix("could not invalidate http://origin.test/a") })
    }

    /// With the network allowed, the request goes out and says why.
    @Test func aLookupThatFailsIsAMissWhenTheNetworkMayAnswer() async throws {
        let (answer, transport) = try await send(.useProtocolCachePolicy)
        #expect(answer.decision.outcome == .downloaded && transport.requests.count == 1)
        #expect(answer.decision.reasons.first?.hasPrefix("cache storage could not be read") == true)
    }

    /// Stored data only (offline, only-if-cached): the damage is the answer, not "nothing stored".
    @Test func aLookupThatFailsIsTheAnswerWhenOnlyStoredDataMay() async throws {
        await #expect(throws: UnreadableStorage.Damaged.self) { _ = try await send(.returnCacheDataDontLoad) }
        await #expect(throws: UnreadableStorage.Damaged.self) { _ = try await send(.useProtocolCachePolicy, headers: [.cacheControl: "only-if-cached"]) }
    }
}

/// A store whose lookups and removals fail, as a damaged cache file's do.
private final class UnreadableStorage: CacheStorage {
    struct Damaged: Error {}
    func variants(forKey key: String) throws -> [StoredResponse] { throw Damaged() }
    func store(_ entry: StoredResponse) throws {}
    func refresh(_ entry: StoredResponse) throws {}
    func removeAll(forKey key: String) throws { throw Damaged() }
    func recordAccess(key: String, variantKey: String) {}
    func recordOutcome(_ outcome: CacheOutcome) {}
}
