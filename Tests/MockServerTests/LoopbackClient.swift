import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

/// An HTTP/1.1 client on one keep-alive connection to a loopback port, for the mock server's
/// tests: a request is sent whole, and its response read whole, before the next is sent.
///
/// NIO's own client codec does the framing (chunked bodies, `Content-Length`, a body-less answer
/// to HEAD); this adds only the turn-taking. A connection the server closes mid-answer makes the
/// request throw.
actor LoopbackClient {
    /// A request: the head (method, path, header fields) and an optional body.
    struct Request: Sendable {
        var head: HTTPRequest
        var body: ByteBuffer?

        init(_ path: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) {
            head = HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: headers)
            self.body = body
        }
    }

    /// A response read whole; `body` is `nil` when it had none.
    struct Response: Sendable {
        var head: HTTPResponse
        var body: ByteBuffer?

        var status: HTTPResponse.Status { head.status }
        var headers: HTTPFields { head.headerFields }
    }

    /// The connection closed before a whole response came.
    struct ConnectionClosed: Error {}

    private let channel: NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>
    private var responses: NIOAsyncChannelInboundStream<HTTPResponsePart>.AsyncIterator

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) async throws {
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                    return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        responses = channel.inbound.makeAsyncIterator()
    }

    /// Sends `request` and reads its response.
    func execute(_ request: Request) async throws -> Response {
        var head = request.head
        // A body's length said up front: a GET's body is otherwise read as the next request.
        if let body = request.body, head.headerFields[.contentLength] == nil {
            head.headerFields[.contentLength] = String(body.readableBytes)
        }
        try await channel.outbound.write(.head(head))
        if let body = request.body { try await channel.outbound.write(.body(body)) }
        try await channel.outbound.write(.end(nil))
        // The iterator holds a reference to the stream: a copy reads on from where it stands.
        var parts = responses
        defer { responses = parts }
        guard case .head(let head)? = try await parts.next(isolation: self) else { throw ConnectionClosed() }
        var body: ByteBuffer?
        while true {
            switch try await parts.next(isolation: self) {
            case .body(var part)?:
                body = body ?? ByteBuffer()
                body?.writeBuffer(&part)
            case .end?: return Response(head: head, body: body)
            case .head?, nil: throw ConnectionClosed()
            }
        }
    }

    /// Closes the connection, unless the server already did.
    func shutdown() async {
        channel.outbound.finish()
        try? await channel.channel.close()
    }
}
