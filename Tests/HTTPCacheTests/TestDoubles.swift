import Foundation
import HTTPCache
import HTTPTypes
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// A transport that answers from a closure and records every request it was sent.
final class ScriptedTransport: HTTPTransport {
    typealias Handler = @Sendable (TransportRequest) throws -> TransportResponse
    private let handler: Mutex<Handler>
    private let sent = Mutex<[TransportRequest]>([])

    init(_ handler: @escaping Handler) {
        self.handler = Mutex(handler)
    }

    func answer(with handler: @escaping Handler) {
        self.handler.withLock { $0 = handler }
    }

    var requests: [TransportRequest] { sent.withLock { $0 } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        sent.withLock { $0.append(request) }
        return try handler.withLock { $0 }(request)
    }
}

/// A response with the given headers and a text body.
func response(_ status: HTTPResponse.Status = .ok, _ fields: [String: String] = [:], body: String = "") -> TransportResponse {
    var headerFields = HTTPFields()
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
        headerFields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
    }
    return TransportResponse(status: status, headerFields: headerFields, body: Data(body.utf8))
}

/// A caching client over a scripted transport, in-memory storage and a manual clock.
struct Harness {
    let clock = ManualClock()
    let storage = MemoryCacheStorage()
    let transport: ScriptedTransport
    let client: CachingClient

    init(_ handler: @escaping ScriptedTransport.Handler) {
        transport = ScriptedTransport(handler)
        let clock = clock
        client = CachingClient(transport: transport, storage: storage, now: { clock.now })
    }

    func get(_ url: String = "http://origin.test/posts?limit=2", headers: [String: String] = [:], policy: CachePolicy = .useProtocolCachePolicy) async throws -> CachedResponse {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return try await client.send(TransportRequest(method: .get, url: URL(string: url)!, headerFields: fields), policy: policy)
    }
}
